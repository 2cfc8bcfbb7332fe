"""Mining in every pack with a grammar (issue 42): a small rule in Java, Kotlin, Python and SQL,
mined from real grammar parses of its examples, generalised past them, and run as a review runs
it on code the examples never showed; what a rule's words name, in English and Chinese."""

from __future__ import annotations

import pytest

from dualrag.rulebook import detector_rows
from dualrag.units import RuleSource, RuleUnit
from indexers.mining import MiningOptions, mine_book, rule_words

LOOSE = MiningOptions(min_bits=8.0)  # no clean corpus in these languages here: a small book's bits run low


def rule(rule_id: str, title: str, language: str, bad: list[str], good: list[str] = ()) -> RuleUnit:
    return RuleUnit(rule_id=rule_id, title=title, text=title, bad_examples=bad, good_examples=list(good),
                    languages=[language], source=RuleSource(kb="team", file="book.md"))


CASES = [
    pytest.param(
        rule("J-1", "Do not call format on a shared SimpleDateFormat", "java",
             [("private static final SimpleDateFormat FMT = new SimpleDateFormat(\"yyyy\");\n"
               "String day(Date d) { return FMT.format(d); }")],
             ["String day(Date d) { return DateTimeFormatter.ISO_DATE.format(d.toInstant()); }"]),
        "SimpleDateFormat local = pick();\nlog(local.format(when));",  # another receiver of the type
        "String s = DateTimeFormatter.ISO_DATE.format(x);",
        id="java"),
    pytest.param(
        rule("K-1", "Do not use the not-null assertion !! on a nullable value", "kotlin",
             ["val n = name!!.length"], ["val n = name?.length ?: 0"]),
        "fun port(c: Config?) = println(c!!.port)",
        "fun port(c: Config?) = println(c?.port)",
        id="kotlin"),
    pytest.param(
        rule("P-1", "Do not call eval on text you did not write", "python",
             ["result = eval(request.args['q'])"], ["result = ast.literal_eval(expression)"]),
        "def run(cmd):\n    return eval(cmd, {})\n",
        "def run(cmd):\n    return ast.literal_eval(cmd)\n",
        id="python"),
    pytest.param(
        rule("S-1", "Never DELETE without a WHERE clause", "sql",
             ["DELETE FROM orders;"], ["DELETE FROM orders WHERE id = 1;"]),
        "DELETE FROM invoices;",  # a table the example never named
        "DELETE FROM invoices WHERE paid = 0;",
        id="sql"),
]


@pytest.mark.parametrize(("unit", "unseen", "compliant"), CASES)
def test_a_rule_is_mined_generalised_and_reaches_code_its_examples_never_showed(unit, unseen, compliant):
    language = unit.languages[0]
    [mined], report = mine_book([unit], LOOSE)
    det = mined.detect
    assert det is not None and det.languages == [language], report.by_id()[unit.rule_id]
    assert detector_rows(det, language, unseen), det
    assert not detector_rows(det, language, compliant), det
    for code in unit.bad_examples:
        assert detector_rows(det, language, code)


def test_the_lattice_takes_what_the_examples_happened_to_contain_out_and_the_baseline_keeps_it():
    java, sql = CASES[0].values[0], CASES[3].values[0]
    [mined], _ = mine_book([sql], LOOSE)
    assert "names" in mined.detect.mined.level and "orders" not in mined.detect.pattern
    # the example's field was declared with the type: any receiver declared so, once the context is
    # dropped, whether the climb starts at the most general verified candidate (the default) or climbs there
    for start in ("general", "specific"):
        [mined], _ = mine_book([java], MiningOptions(min_bits=8.0, start=start))
        assert mined.detect.scope.receiver_types == ["SimpleDateFormat"] and "FMT" not in mined.detect.pattern
    assert mined.detect.mined.level
    [plain], _ = mine_book([sql], MiningOptions(min_bits=8.0, generalise=False))
    assert plain.detect is not None and plain.detect.mined.level == []
    assert not detector_rows(plain.detect, "sql", "DELETE FROM invoices;")  # `orders` stayed in the pattern


def test_what_a_rules_words_name_in_english_and_chinese():
    zh = rule_words("【强制】三目运算符中，高度注意类型对齐；不要在 finally 块中使用 return；循环体内不要强制转换")
    assert {"ternary_expression", "finally_clause", "for_statement", "enhanced_for_statement",
            "cast_expression", "return_statement"} <= zh.types
    en = rule_words("Never return from a finally block", "Compare with `==` only in tests; for example, an if")
    assert "finally_clause" in en.types and "==" in en.operators
    assert "return" not in en and "for" not in en and "if" not in en  # everyday English, not the constructs
    assert "return" in rule_words("Do not use a `return` statement there")
    sql = rule_words("Never DELETE without WHERE", language="sql")
    assert "keyword_delete" in sql.types and "where" in sql.types
