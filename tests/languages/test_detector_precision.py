"""The new packs' detectors on our own labelled snippets, violating and clean: precision >= 0.9
per pack (a finding is a real violation), and every violating snippet found."""

from __future__ import annotations

import pytest

from dualrag.checks.detectors import detect_hunks
from dualrag.diff.hunks import DiffLine, Hunk
from dualrag.rulebook import load_bundled

RULES = [r for r in load_bundled() if r.detect is not None]

# (language, snippet, violated rule id or None)
SNIPPETS = [
    ("python", "total = eval(form['total'])", "PY-SEC-001"),
    ("python", "exec(compile(source, 'x', 'exec'))", "PY-SEC-001"),
    ("python", "value = ast.literal_eval(raw)", None),
    ("python", "result = model.eval()", None),
    ("python", "obj = pickle.loads(payload)", "PY-SEC-002"),
    ("python", "with open(p, 'rb') as f:\n    state = pickle.load(f)", "PY-SEC-002"),
    ("python", "data = json.loads(payload)", None),
    ("python", "subprocess.check_output(cmd, shell=True)", "PY-SEC-003"),
    ("python", "os.system('rm -rf ' + folder)", "PY-SEC-003"),
    ("python", "subprocess.run(['git', 'status'], check=True)", None),
    ("python", "subprocess.run(cmd, shell=False)", None),
    ("python", "cfg = yaml.load(open(path))", "PY-SEC-004"),
    ("python", "cfg = yaml.load(text, Loader=yaml.FullLoader)", "PY-SEC-004"),
    ("python", "cfg = yaml.load(text, Loader=yaml.SafeLoader)", None),
    ("python", "cfg = yaml.safe_load(text)", None),
    ("python", "DB_PASSWORD = 'hunter2-prod'", "PY-SEC-005"),
    ("python", "client = Client(api_key=\"sk-live-0123456789\")", "PY-SEC-005"),
    ("python", "DB_PASSWORD = os.environ['DB_PASSWORD']", None),
    ("python", "password = getpass.getpass()", None),
    ("python", "PASSWORD_FIELD = 'pw'", None),
    ("sql", "SELECT * FROM orders;", "SQL-SEL-001"),
    ("sql", "SELECT count(*) FROM orders;", None),
    ("sql", "SELECT id, status FROM orders;", None),
    ("sql", "UPDATE stock SET qty = 0;", "SQL-DML-001"),
    ("sql", "DELETE FROM audit_log;", "SQL-DML-001"),
    ("sql", "UPDATE stock SET qty = 0 WHERE sku = 'A1';", None),
    ("sql", "DELETE FROM audit_log\n WHERE created_at < now() - interval '90 days';", None),
    ("sql", "ALTER TABLE orders DROP COLUMN note;", "SQL-MIG-001"),
    ("sql", "DROP TABLE legacy_orders;", "SQL-MIG-001"),
    ("sql", "ALTER TABLE orders ADD COLUMN note text;", None),
    ("sql", "CREATE INDEX idx_orders_status ON orders(status);", None),
    ("mybatis", "<select id=\"a\">SELECT id FROM t WHERE c = ${c}</select>", "SQL-INJ-001"),
    ("mybatis", "<select id=\"a\">SELECT id FROM t ORDER BY ${column}</select>", "SQL-INJ-001"),
    ("mybatis", "<select id=\"a\">SELECT id FROM t WHERE c = #{c}</select>", None),
    ("mybatis", "<update id=\"a\">\n  UPDATE t SET c = #{c}\n</update>", "SQL-DML-002"),
    ("mybatis", "<update id=\"a\">\n  UPDATE t SET c = #{c}\n  <where><if test=\"id != null\">id = #{id}</if></where>\n</update>", None),
    ("mybatis", "<delete id=\"a\">DELETE FROM t WHERE id = #{id}</delete>", None),
    ("kotlin", "val name = user.name!!", "KT-NULL-001"),
    ("kotlin", "val n = findOrder(id)!!.number", "KT-NULL-001"),
    ("kotlin", "if (a !== b) return", None),
    ("kotlin", "val name = user.name ?: \"unknown\"", None),
    ("kotlin", "fun main() = runBlocking { app.start() }", "KT-CORO-001"),
    ("kotlin", "// no runBlocking here\nsuspend fun load() = repo.all()", None),
    ("kotlin", "GlobalScope.launch { send(event) }", "KT-CORO-002"),
    ("kotlin", "scope.launch { send(event) }", None),
    ("spring-yaml", "spring:\n  datasource:\n    password: s3cr3t-pw", "SPRING-CFG-001"),
    ("spring-yaml", "spring:\n  datasource:\n    password: ${DB_PASSWORD}", None),
    ("spring-yaml", "spring:\n  datasource:\n    password:", None),
    ("spring-yaml", "management:\n  endpoints:\n    web:\n      exposure:\n        include: '*'", "SPRING-CFG-003"),
    ("spring-yaml", "management:\n  endpoints:\n    web:\n      exposure:\n        include: health,info", None),
    ("spring-properties", "app.client-secret=abcd1234efgh", "SPRING-CFG-001"),
    ("spring-properties", "app.client-secret=${CLIENT_SECRET}", None),
    ("spring-properties", "management.endpoints.web.exposure.include=*", "SPRING-CFG-003"),
    ("spring-properties", "spring.jpa.hibernate.ddl-auto=validate", None),
]
PACKS = sorted({language for language, _, _ in SNIPPETS})


def _hunk(text: str) -> Hunk:
    lines = tuple(DiffLine("+", None, 10 + i, t) for i, t in enumerate(text.split("\n")))
    return Hunk(10, 0, 10, len(lines), "", lines)


def _fired(language: str, text: str) -> set[str]:
    rules = [r for r in RULES if language in r.detect.languages]
    return {f.rule_id for f in detect_hunks(f"x.{language}", language, [_hunk(text)], rules)}


@pytest.mark.parametrize("language", PACKS)
def test_precision_and_recall_on_labelled_snippets(language):
    true_pos = false_pos = missed = 0
    wrong = []
    for lang, text, expected in SNIPPETS:
        if lang != language:
            continue
        fired = _fired(lang, text)
        true_pos += expected in fired
        false_pos += len(fired - {expected})
        missed += expected is not None and expected not in fired
        if fired - {expected} or (expected is not None and expected not in fired):
            wrong.append((text, expected, sorted(fired)))
    precision = true_pos / (true_pos + false_pos) if true_pos + false_pos else 1.0
    assert precision >= 0.9, wrong
    assert not missed, wrong


def test_ddl_auto_fires_only_in_production_profiles(settings):
    from dualrag.checks.detectors import run_detectors
    from dualrag.diff import ingest

    def diff(path: str) -> bytes:
        return (f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n"
                f"+++ b/{path}\n@@ -0,0 +1,1 @@\n+spring.jpa.hibernate.ddl-auto=update\n").encode()

    prod = run_detectors(ingest(diff("src/main/resources/application-prod.properties"), settings), RULES)
    dev = run_detectors(ingest(diff("src/main/resources/application-dev.properties"), settings), RULES)
    assert [f.rule_id for f in prod] == ["SPRING-CFG-002"]
    assert dev == []
