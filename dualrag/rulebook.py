"""Rule-set Markdown files (the rules we ship, `knowledge/`) -> RuleUnits.

One file holds several rules. Each rule opens with a YAML front-matter block between two
`---` lines, followed by its Markdown body; `### Bad` and `### Good` sections hold the
examples as fenced code blocks. Text before the first block is the rule set's preamble; its
first `# heading` names the set. The format is documented in `knowledge/README.md`.

    from dualrag.rulebook import load_bundled
    rules = load_bundled()          # every rule under knowledge/, ids unique
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from dualrag import languages
from dualrag._bundled import knowledge_dir
from dualrag.errors import UserError
from dualrag.scoped_query import match_rows
from dualrag.units import Detector, DetectorFix, QueryScope, RuleLevel, RuleSource, RuleUnit, Severity

REQUIRED_KEYS = ("id", "title", "level", "severity", "project_types", "languages")
OPTIONAL_KEYS = ("domains", "tags", "detect")
DETECT_KEYS = {"kind", "pattern", "languages", "message", "on", "fix", "paths", "scope"}
_ID = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$")
_FENCE = re.compile(r"^\s*(```+|~~~+)")
_EXAMPLE_HEADING = re.compile(r"^###\s+(bad|good)\b", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s")
_RULE_FRONT_MATTER = re.compile(r"^---[ \t]*\r?\n(?:[^\n]*\n){0,5}?id:[ \t]*\S", re.MULTILINE)


class RuleBookError(UserError):
    """A rule-set file is malformed; the message names the file, the line and the rule id."""


class _Loader(yaml.SafeLoader):
    """YAML 1.2 booleans only: `on`, `off`, `yes`, `no` (and the country code NO) stay strings."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_bundled(root: Path | str | None = None, *, kb: str = "bundled") -> list[RuleUnit]:
    """Every rule under `root` (default: the bundled `knowledge/`, plus the rule folder each
    third-party language pack ships: `LanguagePack.rules` as an absolute path), README files
    excepted. Ids are unique across all of them."""
    base = Path(root) if root is not None else knowledge_dir()
    if not base.is_dir():
        raise RuleBookError(f"{base}: rule folder not found")
    rules: list[RuleUnit] = []
    seen: dict[str, str] = {}
    folders = [(base, base)] + ([(d, d.parent) for d in pack_rule_dirs()] if root is None else [])
    for folder, relative_to in folders:
        for path in sorted(folder.rglob("*.md")):
            if path.name.lower() == "readme.md":
                continue
            rel = path.relative_to(relative_to).as_posix()
            for rule in load_rule_file(path, kb=kb, relative_to=relative_to):
                if rule.rule_id in seen:
                    raise RuleBookError(f"{rel}: rule {rule.rule_id}: duplicate id, already defined in "
                                        f"{seen[rule.rule_id]}")
                seen[rule.rule_id] = rel
                rules.append(rule)
    return rules


def pack_rule_dirs() -> tuple[Path, ...]:
    """Rule folders that language packs ship outside `knowledge/` (absolute `rules` paths)."""
    out = []
    for pack in languages.packs():
        if pack.rules and Path(pack.rules).is_absolute() and Path(pack.rules).is_dir():
            out.append(Path(pack.rules))
    return tuple(dict.fromkeys(out))


def is_rule_set(path: Path | str) -> bool:
    """A Markdown file in our rule-set format (front matter with an `id` per rule), as opposed
    to a prose guideline that the document segmenter takes apart."""
    path = Path(path)
    if path.suffix.lower() != ".md" or path.name.lower() == "readme.md":
        return False
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return False
    return _RULE_FRONT_MATTER.search(head) is not None


def load_bundled_cached(root: str | None = None) -> tuple[RuleUnit, ...]:
    """`load_bundled` once per process and set of language-pack rule folders (the review
    pipeline calls it on every run)."""
    return _load_cached(root, pack_rule_dirs() if root is None else ())


@lru_cache(maxsize=4)
def _load_cached(root: str | None, pack_dirs: tuple[Path, ...]) -> tuple[RuleUnit, ...]:
    return tuple(load_bundled(root))


def load_rule_file(path: Path | str, kb: str = "bundled", *, relative_to: Path | None = None) -> list[RuleUnit]:
    path = Path(path)
    base = relative_to if relative_to is not None else _guess_root(path)
    try:
        name = path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleBookError(f"{path}: cannot read rule file ({exc})") from exc
    blocks, preamble = _split(text, name)
    set_name = next((ln.lstrip("#").strip() for ln in preamble if ln.startswith("# ")), path.stem)
    section = [p for p in (Path(name).parent.as_posix(), set_name) if p and p != "."]
    rules: list[RuleUnit] = []
    seen: dict[str, int] = {}
    for start, meta_text, body in blocks:
        rule = _build(name, start, meta_text, body, kb=kb, section=section)
        if rule.rule_id in seen:
            raise RuleBookError(f"{name}:{start}: rule {rule.rule_id}: duplicate id (first at line {seen[rule.rule_id]})")
        seen[rule.rule_id] = start
        rules.append(rule)
    if not rules:
        raise RuleBookError(f"{name}: no rules found (each rule starts with a '---' front-matter block)")
    return rules


def project_types() -> frozenset[str]:
    """The project types a rule may name: generic plus those the language packs give (java, edi)."""
    return languages.project_types()


def tree_sitter_languages() -> frozenset[str]:
    """The languages a tree-sitter detector may target: those whose pack has a grammar."""
    return languages.grammar_languages()


@lru_cache(maxsize=256)
def compile_query(language: str, pattern: str):
    """A tree-sitter Query for a detector, in the grammar of the language's pack (one loader for
    every pack: `dualrag.languages`); grammars load on first use."""
    from tree_sitter import Query

    return Query(languages.language(language), pattern)


def parse_fragment(language: str, text: str):
    """The root node of `text` (a diff fragment: tree-sitter recovers from the missing parts)."""
    return languages.parser(language).parse(text.encode("utf-8", "replace")).root_node


def query_rows(language: str, pattern: str, root) -> list[int]:
    """0-based rows where a tree-sitter detector's `@violation` captures start in a parsed text,
    each row once, in order: what `checks/detectors.py` reports on a hunk and what mining
    verifies a candidate with."""
    from tree_sitter import QueryCursor

    nodes = QueryCursor(compile_query(language, pattern)).captures(root).get("violation", [])
    return sorted({node.start_point.row for node in nodes})


def detector_rows(detector: Detector, language: str, text: str) -> list[int]:
    """0-based rows of `text` a detector (any of its forms) fires on when every line of it is
    added (a regex on each line; a query on the text parsed as one fragment, as a hunk is)."""
    rows: set[int] = set()
    root = None
    for form in detector.forms:
        if form.kind == "regex":
            rx = re.compile(form.pattern)
            rows.update(i for i, line in enumerate(text.split("\n")) if rx.search(line))
        else:
            root = root if root is not None else parse_fragment(language, text)
            rows.update(_form_rows(form, language, root))
    return sorted(rows)


def tree_rows(detector: Detector, language: str, root) -> list[int]:
    """0-based rows a `tree-sitter` or `scoped-query` detector (any of its query forms) fires on
    in a parsed text."""
    if not detector.also:
        return _form_rows(detector, language, root)
    return sorted({row for form in detector.forms if form.kind != "regex" for row in _form_rows(form, language, root)})


def _form_rows(form: Detector, language: str, root) -> list[int]:
    if form.kind == "scoped-query":
        return match_rows(compile_query(language, form.pattern), form.scope, language, root)
    return query_rows(language, form.pattern, root)


def _guess_root(path: Path) -> Path:
    """The nearest ancestor called `knowledge`, else the file's folder."""
    for parent in path.resolve().parents:
        if parent.name == "knowledge":
            return parent
    return path.resolve().parent


def _split(text: str, name: str) -> tuple[list[tuple[int, str, list[str]]], list[str]]:
    """(front-matter start line, YAML text, body lines) per rule, and the preamble lines."""
    lines = text.splitlines()
    preamble: list[str] = []
    blocks: list[tuple[int, str, list[str]]] = []
    i, fence = 0, None
    current_body: list[str] | None = None
    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line)
        if fence is None and line.strip() == "---":
            start = i + 1
            j = i + 1
            while j < len(lines) and lines[j].strip() != "---":
                j += 1
            if j >= len(lines):
                raise RuleBookError(f"{name}:{start}: front matter is not closed by a '---' line")
            current_body = []
            blocks.append((start, "\n".join(lines[i + 1 : j]), current_body))
            i = j + 1
            continue
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker
            elif line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                fence = None
        (current_body if current_body is not None else preamble).append(line)
        i += 1
    if fence is not None:
        raise RuleBookError(f"{name}: a code block is not closed")
    return blocks, preamble


def _build(name: str, start: int, meta_text: str, body: list[str], *, kb: str, section: list[str]) -> RuleUnit:
    where = f"{name}:{start}"
    try:
        meta = yaml.load(meta_text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = start + 1 + mark.line if mark is not None else start
        raise RuleBookError(f"{name}:{line}: invalid YAML front matter ({getattr(exc, 'problem', exc)})") from exc
    if not isinstance(meta, dict):
        raise RuleBookError(f"{where}: front matter must be a mapping of keys to values")
    rid = meta.get("id")
    if not isinstance(rid, str) or not _ID.match(rid):
        raise RuleBookError(f"{where}: missing or malformed 'id' (expected e.g. JAVA-NULL-003), got {rid!r}")
    where = f"{where}: rule {rid}"
    unknown = sorted(str(k) for k in meta if k not in REQUIRED_KEYS and k not in OPTIONAL_KEYS)
    if unknown:
        raise RuleBookError(f"{where}: unknown key(s) {', '.join(unknown)}")
    missing = [k for k in REQUIRED_KEYS if k not in meta]
    if missing:
        raise RuleBookError(f"{where}: missing key(s) {', '.join(missing)}")
    title = _uncommented(meta["title"], meta_text, "title")
    if not isinstance(title, str) or not title.strip():
        raise RuleBookError(f"{where}: 'title' must be a non-empty string")
    level = _enum(RuleLevel, meta["level"], "level", where)
    severity = _enum(Severity, meta["severity"], "severity", where)
    lists = {k: _str_list(meta.get(k, []), k, where) for k in ("project_types", "languages", "domains", "tags")}
    allowed = project_types()
    bad_types = sorted(set(lists["project_types"]) - allowed)
    if bad_types:
        raise RuleBookError(f"{where}: project_types {bad_types} not in {sorted(allowed)}")
    text, bad, good = _body(body, where)
    detect = _detector(meta.get("detect"), lists["languages"], where) if "detect" in meta else None
    return RuleUnit(
        rule_id=rid, title=title.strip(), text=text, level=level, severity=severity, section=section,
        project_types=lists["project_types"], languages=lists["languages"], domains=lists["domains"],
        tags=lists["tags"], bad_examples=bad, good_examples=good,
        source=RuleSource(kb=kb, file=name, anchor=rid), detect=detect,
    )


def _uncommented(value: Any, meta_text: str, key: str) -> Any:
    """A plain (unquoted) one-line YAML value that YAML cut at ` #` — `title: Use #{} in mappers`
    reads as `Use` — is taken whole from its line: `#` followed by a non-blank is text (`#{}`,
    `#1`), not a comment. A real comment (`# ...`, hash then a blank) is still dropped."""
    if not isinstance(value, str):
        return value
    line = re.search(rf"^{re.escape(key)}:[ \t]+(.*)$", meta_text, re.MULTILINE)
    if line is None:
        return value
    raw = line.group(1)
    if raw[:1] in ("'", '"', "|", ">", "&", "!", "[", "{") or not re.search(r"\s#\S", raw):
        return value
    return re.sub(r"\s+#(\s.*)?$", "", raw).strip()


def _enum(enum, value: Any, key: str, where: str):
    try:
        return enum(value)
    except ValueError:
        allowed = "|".join(e.value for e in enum)
        raise RuleBookError(f"{where}: bad {key} {value!r} (expected {allowed})") from None


def _str_list(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise RuleBookError(f"{where}: '{key}' must be a list of strings")
    return list(value)


def _body(lines: list[str], where: str) -> tuple[str, list[str], list[str]]:
    """Prose (everything but the Bad/Good sections) and the fenced examples of those sections."""
    prose: list[str] = []
    examples: dict[str, list[str]] = {"bad": [], "good": []}
    mode: str | None = None  # None = prose, "bad" / "good" = inside an example section
    fence: str | None = None
    block: list[str] = []
    for line in lines:
        if fence is None:
            heading = _EXAMPLE_HEADING.match(line)
            if heading:
                mode = heading.group(1).lower()
                continue
            if mode and _HEADING.match(line):
                mode = None  # another heading ends the example section
        m = _FENCE.match(line)
        if mode is None:
            prose.append(line)
            if m:
                fence = None if fence else m.group(1)
            continue
        if fence is None:
            if m:
                fence, block = m.group(1), [line.strip()]
            elif line.strip():
                raise RuleBookError(f"{where}: text outside a code block in the '### {mode.title()}' section "
                                    f"(put explanations in code comments): {line.strip()[:60]!r}")
            continue
        block.append(line)
        if m and not line.strip().strip(fence[0]):
            examples[mode].append("\n".join(block))
            fence, block = None, []
    text = "\n".join(prose).strip()
    if not text:
        raise RuleBookError(f"{where}: the rule has no text")
    return text, examples["bad"], examples["good"]


def _detector(raw: Any, rule_languages: list[str], where: str) -> Detector:
    if not isinstance(raw, dict):
        raise RuleBookError(f"{where}: 'detect' must be a mapping (kind, pattern, languages, message, on)")
    unknown = sorted(str(k) for k in raw if k not in DETECT_KEYS)
    if unknown:
        raise RuleBookError(f"{where}: unknown detect key(s) {', '.join(unknown)}")
    kind, pattern = raw.get("kind"), raw.get("pattern")
    if kind not in ("regex", "tree-sitter", "scoped-query"):
        raise RuleBookError(f"{where}: detect.kind must be regex, tree-sitter or scoped-query, got {kind!r}")
    if not isinstance(pattern, str) or not pattern.strip():
        raise RuleBookError(f"{where}: detect.pattern must be a non-empty string")
    detect_languages = _str_list(raw.get("languages", rule_languages), "detect.languages", where)
    if not detect_languages:
        raise RuleBookError(f"{where}: a detector needs languages (detect.languages or the rule's languages)")
    on = raw.get("on", "added")
    if on not in ("added", "removed", "dropped"):
        raise RuleBookError(f"{where}: detect.on must be added, removed or dropped, got {on!r}")
    if kind == "regex":
        try:
            re.compile(pattern)
        except re.error as exc:
            raise RuleBookError(f"{where}: invalid detect regex ({exc})") from None
    else:
        if on != "added":
            raise RuleBookError(f"{where}: tree-sitter detectors run on added lines only")
        unsupported = sorted(set(detect_languages) - tree_sitter_languages())
        if unsupported:
            raise RuleBookError(f"{where}: no tree-sitter grammar for {unsupported}")
        for language in detect_languages:
            try:
                query = compile_query(language, pattern)
            except Exception as exc:  # tree_sitter raises QueryError / NameError variants by version
                raise RuleBookError(f"{where}: invalid tree-sitter query ({exc})") from None
            if "violation" not in {query.capture_name(i) for i in range(query.capture_count)}:
                raise RuleBookError(f"{where}: the tree-sitter query has no @violation capture")
    message = raw.get("message")
    if message is not None and not isinstance(message, str):
        raise RuleBookError(f"{where}: detect.message must be a string")
    paths = _str_list(raw.get("paths", []), "detect.paths", where)
    return Detector(kind=kind, pattern=pattern, languages=detect_languages, message=message, on=on,
                    fix=_detector_fix(raw.get("fix"), kind, on, where), paths=paths,
                    scope=_scope(raw.get("scope"), kind, where))


def _scope(raw: Any, kind: str, where: str) -> QueryScope | None:
    if (raw is None) != (kind != "scoped-query"):
        raise RuleBookError(f"{where}: detect.scope goes with kind scoped-query, and that kind needs one")
    if raw is None:
        return None
    if not isinstance(raw, dict) or not set(raw) <= {"inside", "receiver_types", "absent"}:
        raise RuleBookError(f"{where}: detect.scope is a mapping of 'inside', 'receiver_types' and 'absent' "
                            "(lists of names)")
    return QueryScope(inside=_str_list(raw.get("inside", []), "detect.scope.inside", where),
                      receiver_types=_str_list(raw.get("receiver_types", []), "detect.scope.receiver_types", where),
                      absent=_str_list(raw.get("absent", []), "detect.scope.absent", where))


def _detector_fix(raw: Any, kind: str, on: str, where: str) -> DetectorFix | None:
    if raw is None:
        return None
    if kind != "regex" or on != "added":
        raise RuleBookError(f"{where}: detect.fix rewrites added lines of regex detectors only")
    if not isinstance(raw, dict) or set(raw) != {"pattern", "replace"} or not all(
            isinstance(raw[k], str) for k in raw):
        raise RuleBookError(f"{where}: detect.fix must be a mapping with string 'pattern' and 'replace'")
    try:
        rx = re.compile(raw["pattern"])
    except re.error as exc:
        raise RuleBookError(f"{where}: invalid detect.fix pattern ({exc})") from None
    for number, name in re.findall(r"\\(?:(\d+)|g<(\w+)>)", raw["replace"]):  # a template's group refs
        if (number and int(number) > rx.groups) or (name and not name.isdigit() and name not in rx.groupindex):
            raise RuleBookError(f"{where}: detect.fix.replace refers to a group the pattern does not have")
    return DetectorFix(pattern=raw["pattern"], replace=raw["replace"])
