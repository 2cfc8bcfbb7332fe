"""Deterministic validators of `.flow`, `.dt` and `partners.xml` (format 1.0, docs/edi-format.md).

`validate(doc, files)` returns the issues of one document. Checks that need the whole document
(references, duplicates, mandatory elements, step order, acknowledgement policy) run only on a
complete document; on diff fragments (`doc.partial`) only checks local to one element run.
Cross-file references go through `files` (a `Files`); when it cannot tell whether a file exists
the check is skipped and a note says so — never a guess.
"""

from __future__ import annotations

import datetime as _dt
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from dualrag.edi import schema as S
from dualrag.edi.model import Document, Issue, Node
from dualrag.edi.reader import read_document, scan_fragment

OK, MISSING, UNKNOWN = "ok", "missing", "unknown"


@dataclass
class Files:
    """What we know of other files of the new revision: `read(path) -> bytes | None` (repository at
    hand: None = absent), or only the diff (`known`: full contents of added files; `fragments`:
    hunks' new-side lines of other files; `deleted`)."""

    read: Callable[[str], bytes | None] | None = None
    known: dict[str, bytes] = field(default_factory=dict)
    fragments: dict[str, list[list[tuple[int, str]]]] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    _cache: dict[str, tuple[str, bytes | None]] = field(default_factory=dict)

    def get(self, path: str) -> tuple[str, bytes | None]:
        path = posixpath.normpath(path)
        if path in self._cache:
            return self._cache[path]
        if path in self.known:
            res = (OK, self.known[path])
        elif path in self.deleted:
            res = (MISSING, None)
        elif self.read is not None:
            try:
                data = self.read(path)
            except Exception:  # noqa: BLE001 - a reader failure means "cannot tell"
                data, res = None, (UNKNOWN, None)
            else:
                res = (OK, data) if data is not None else (MISSING, None)
        else:
            res = (UNKNOWN, None)
        self._cache[path] = res
        return res

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def validate(doc: Document, files: Files | None = None) -> list[Issue]:
    files = files or Files()
    issues = list(doc.issues)
    nodes: Iterable[Node]
    if doc.partial:
        tops = doc.fragments
        nodes = [n for t in tops for n in t.iter()]
        issues += _schema_local(doc.kind, nodes)
    elif doc.root is not None:
        nodes = list(doc.root.iter())
        doc.nodes = nodes
        issues += _schema_full(doc.kind, doc.root)
    else:
        return issues
    if doc.kind == "dt":
        dt = _Defs(doc) if not doc.partial else None
        for n in nodes:
            if n.tag == "map":
                issues += _check_map(n, dt)
            elif n.tag == "default" and dt is not None:
                issues += _check_literal(n, dt.target_def(n.attrs.get("to") or ""), n.attrs.get("value"))
        if dt is not None:
            issues += _dt_document(doc.root, dt, nodes)
    elif doc.kind == "flow":
        for n in nodes:
            issues += _flow_local(n)
        if not doc.partial:
            issues += _flow_document(doc, files)
    elif doc.kind == "partners" and not doc.partial:
        issues += _duplicates(doc.root.iter("partner"), "id", "partner")
    return issues


# --- schema --------------------------------------------------------------------------------

def _schema_full(kind: str, root: Node) -> list[Issue]:
    table = S.SCHEMAS[kind]
    expected = S.ROOTS[kind]
    if root.tag != expected:
        return [Issue("EDI-FMT-001", root.line, f"the root element of a .{kind} file is <{expected}>, "
                      f"not <{root.tag}>")]
    out: list[Issue] = []
    fmt = root.attrs.get("format")
    if fmt is not None and fmt not in S.FORMAT_VERSIONS:
        out.append(Issue("EDI-FMT-003", root.line, f"format version '{fmt}' is not supported "
                         f"(known: {', '.join(sorted(S.FORMAT_VERSIONS))})"))
    stack = [root]
    while stack:
        node = stack.pop()
        out += _attributes(node, table[node.tag])
        allowed = table[node.tag][2]
        for child in node.children:
            if child.tag not in allowed or child.tag not in table:
                out.append(Issue("EDI-FMT-003", child.line, f"<{child.tag}> is not allowed inside <{node.tag}>"
                                 + (f" (allowed: {', '.join(sorted(allowed))})" if allowed else " (no children)")))
            else:
                stack.append(child)
    return out


def _schema_local(kind: str, nodes: Iterable[Node]) -> list[Issue]:
    table = S.SCHEMAS[kind]
    out: list[Issue] = []
    for node in nodes:
        spec = table.get(node.tag)
        if spec is None:
            out.append(Issue("EDI-FMT-003", node.line, f"<{node.tag}> is not an element of the .{kind} format"))
            continue
        if node.parent is not None and node.parent.tag in table and node.tag not in table[node.parent.tag][2]:
            out.append(Issue("EDI-FMT-003", node.line, f"<{node.tag}> is not allowed inside <{node.parent.tag}>"))
        out += _attributes(node, spec)
    return out


_ENUMS_BY_TAG: dict[str, dict[str, frozenset[str]]] = {}
for (_t, _a), _v in S.ENUMS.items():
    _ENUMS_BY_TAG.setdefault(_t, {})[_a] = _v


def _attributes(node: Node, spec) -> list[Issue]:
    allowed, required, _ = spec
    attrs = node.attrs
    out: list[Issue] = []
    if attrs.keys() <= allowed and all(attrs.get(a) for a in required) and node.tag != "route":
        enums = _ENUMS_BY_TAG.get(node.tag)
        if not enums or all(attrs[a] in v for a, v in enums.items() if a in attrs):
            return out
    unknown = [a for a in node.attrs if a not in allowed and not a.startswith("{")]
    if unknown:
        out.append(Issue("EDI-FMT-003", node.line, f"unknown attribute(s) {', '.join(unknown)} on <{node.tag}>"))
    missing = [a for a in sorted(required) if not node.attrs.get(a)]
    if node.tag == "route" and not (node.attrs.get("target") or node.attrs.get("flow")):
        missing.append("target or flow")
    if missing:
        out.append(Issue("EDI-FMT-003", node.line, f"<{node.tag}> needs {', '.join(missing)}"))
    for name, value in node.attrs.items():
        values = S.ENUMS.get((node.tag, name))
        if values is not None and value not in values:
            out.append(Issue("EDI-FMT-003", node.line, f"{name}=\"{value}\" on <{node.tag}> is not one of "
                             f"{', '.join(sorted(values))}"))
    return out


def _duplicates(nodes: Iterable[Node], attr: str, what: str) -> list[Issue]:
    seen: dict[str, Node] = {}
    out = []
    for n in nodes:
        key = n.attrs.get(attr)
        if not key:
            continue
        if key in seen:
            out.append(Issue("EDI-FMT-004", n.line, f"duplicate {what} {attr} '{key}' (first on line {seen[key].line})"))
        else:
            seen[key] = n
    return out


# --- data transforms -------------------------------------------------------------------------

_QUAL = re.compile(r"\[[^\]]*\]")
_X12_ELEMENT = re.compile(r"^[A-Z][A-Z0-9]{1,2}\d{2}$")


def _norm(path: str) -> str:
    return (_QUAL.sub("", path) if "[" in path else path).strip()


def _last(path: str) -> str:
    return _norm(path).rpartition(".")[2]


class _Defs:
    """Index of the source and target message definitions of a transform."""

    def __init__(self, doc: Document) -> None:
        root = doc.root
        self.source = root.find("source") if root is not None else None
        self.target = root.find("target") if root is not None else None
        self.src_index = self._index(self.source)
        self.tgt_index = self._index(self.target)

    @staticmethod
    def _index(side: Node | None) -> dict[str, Node] | None:
        if side is None or not side.children:
            return None  # no definition: paths cannot be checked
        idx: dict[str, Node] = {}
        for n in side.iter():
            if n.tag == "element" and n.attrs.get("id"):
                idx.setdefault(n.attrs.get("id"), n)
            elif n.tag == "field" and n.attrs.get("path"):
                idx.setdefault("f:" + _norm(n.attrs.get("path")), n)
        return idx

    @staticmethod
    def _lookup(idx: dict[str, Node] | None, path: str) -> Node | None:
        if idx is None or not path:
            return None
        return idx.get("f:" + _norm(path)) or idx.get(_last(path))

    def target_def(self, path: str) -> Node | None:
        return self._lookup(self.tgt_index, path)

    def source_def(self, path: str) -> Node | None:
        return self._lookup(self.src_index, path) or self._lookup(self.tgt_index, path)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _check_map(m: Node, dt: _Defs | None) -> list[Issue]:
    out: list[Issue] = []
    to = m.attrs.get("to") or ""
    elem = _last(to)
    value, expr, src, func = m.attrs.get("value"), m.attrs.get("expr"), m.attrs.get("from"), m.attrs.get("function")
    # one value source; the function library
    if value is not None and (expr is not None or src is not None or func is not None):
        out.append(Issue("EDI-MAP-003", m.line, f"mapping to {to} has a literal value and also "
                         f"{'expr' if expr is not None else 'from' if src is not None else 'function'}: one source only"))
    elif expr is not None and src is not None:
        out.append(Issue("EDI-MAP-003", m.line, f"mapping to {to} has both from and expr: one source only"))
    elif value is None and expr is None and src is None and func is None:
        out.append(Issue("EDI-MAP-003", m.line, f"mapping to {to} has no source: give value, from, expr or function"))
    if func is not None:
        if func not in S.FUNCTIONS:
            out.append(Issue("EDI-MAP-003", m.line, f"function '{func}' is not in the mapping function library"))
        elif func == "sequence" and not m.attrs.get("sequence"):
            out.append(Issue("EDI-MAP-003", m.line, "function 'sequence' needs sequence=\"name\""))
        elif func == "table" and not m.attrs.get("table"):
            out.append(Issue("EDI-MAP-003", m.line, "function 'table' needs table=\"name\""))
    # envelopes
    if elem in S.CONTROL_NUMBERS and (value is not None or (expr is not None and expr.strip().isdigit())):
        out.append(Issue("EDI-CTRL-001", m.line, f"control number {elem} is the literal "
                         f"'{value if value is not None else expr}': every document repeats it; use function=\"sequence\""))
    if elem in S.TRAILERS:
        header = S.TRAILERS[elem]
        if src is None or _last(src) != header or func is not None:
            out.append(Issue("EDI-CTRL-002", m.line, f"trailer {elem} must repeat {header}: map it with from=\"{header}\""))
    if elem in S.COUNTS and (value is not None or (expr is not None and expr.strip().isdigit())):
        out.append(Issue("EDI-CTRL-003", m.line, f"count {elem} is a literal; compute it (function=\"segmentCount\" "
                         "or \"lineCount\")"))
    # dates
    out += _check_date_pattern(m, elem, src)
    # the target definition (full documents), else the mapping's own declarations
    tdef = dt.target_def(to) if dt is not None else None
    if dt is not None and dt.tgt_index is not None and to and tdef is None:
        out.append(Issue("EDI-FMT-005", m.line, f"target {to} is not defined in the target message"))
    if dt is not None and src is not None and dt.src_index is not None and dt.source_def(src) is None:
        out.append(Issue("EDI-FMT-005", m.line, f"source {src} is not defined in the source message"))
    if tdef is not None:
        if tdef.attrs.get("literal") == "true" and value is None:
            out.append(Issue("EDI-CODE-001", m.line, f"{to} is fixed by the partner agreement: map the agreed "
                             "literal with value=\"...\", not a computed value"))
        mtype, ttype = m.attrs.get("type"), tdef.attrs.get("type")
        if mtype and ttype and mtype != ttype and not _compatible(mtype, ttype):
            out.append(Issue("EDI-MAP-002", m.line, f"type=\"{mtype}\" on the mapping, but {to} is {ttype}"))
        mmax, tmax = _int(m.attrs.get("maxLength")), _int(tdef.attrs.get("maxLength"))
        if mmax is not None and tmax is not None and mmax > tmax:
            out.append(Issue("EDI-MAP-002", m.line, f"maxLength {mmax} on the mapping, but {to} holds at most {tmax}"))
    out += _check_literal(m, tdef, value)
    if dt is not None and src is not None and tdef is not None:
        sdef = dt.source_def(src)
        if sdef is not None:
            out += _check_fit(m, sdef, tdef, src, to, func)
    return out


def _compatible(a: str, b: str) -> bool:
    groups = [{"AN", "an", "string", "a"}, {"ID", "code"}, {"DT", "date"}, {"TM", "time"},
              {"N0", "integer", "n"}, {"R", "decimal"}]
    return any(a in g and b in g for g in groups)


_DECIMALS = {"R", "decimal", "n", *(f"N{i}" for i in range(1, 10))}
_INTEGERS = {"N0", "integer"}
_NUMERIC = _DECIMALS | _INTEGERS
_TEXT = {"AN", "an", "a", "string"}


def _check_fit(m: Node, sdef: Node, tdef: Node, src: str, to: str, func: str | None) -> list[Issue]:
    out = []
    stype, ttype = sdef.attrs.get("type"), m.attrs.get("type") or tdef.attrs.get("type")
    smax, tmax = _int(sdef.attrs.get("maxLength")), _int(tdef.attrs.get("maxLength"))
    mmax = _int(m.attrs.get("maxLength"))
    shortened = func in S.SHORTENING_FUNCTIONS or (mmax is not None and tmax is not None and mmax <= tmax)
    if smax is not None and tmax is not None and smax > tmax and not shortened:
        out.append(Issue("EDI-MAP-002", m.line, f"{src} holds up to {smax} characters but {to} at most {tmax}: "
                         "values will be cut or rejected; shorten explicitly (function=\"truncate\" or maxLength)"))
    if stype and ttype and func not in S.CONVERTING_FUNCTIONS:
        if stype in _DECIMALS and ttype in _INTEGERS:
            out.append(Issue("EDI-MAP-002", m.line, f"{src} is {stype} (decimals) but {to} is {ttype} (integer): "
                             "fractions are lost; convert explicitly"))
        elif stype in _TEXT and ttype in _NUMERIC:
            out.append(Issue("EDI-MAP-002", m.line, f"{src} is free text ({stype}) but {to} is numeric ({ttype})"))
    scodes, tcodes = (sdef.attrs.get("codes") or "").split(), (tdef.attrs.get("codes") or "").split()
    if scodes and tcodes and func != "table":
        extra = [c for c in scodes if c not in tcodes]
        if extra:
            out.append(Issue("EDI-CODE-002", m.line, f"{src} may carry {', '.join(extra[:5])}, outside the code list "
                             f"of {to}; translate with function=\"table\""))
    return out


_PAT_QUOTED = re.compile(r"'[^']*'")


def _check_date_pattern(m: Node, elem: str, src: str | None) -> list[Issue]:
    func, pattern = m.attrs.get("function"), m.attrs.get("pattern")
    if func in ("date", "time") and not pattern:
        return [Issue("EDI-DATE-001", m.line, f"function '{func}' without pattern: the format is left to a default")]
    if pattern is None or "ISA09" in (elem, _last(src or "")):
        return []
    bare = _PAT_QUOTED.sub("", pattern)
    if "Y" in bare or "D" in bare:
        return [Issue("EDI-DATE-001", m.line, f"pattern '{pattern}' uses Y (week-based year) or D (day of year); "
                      "calendar dates are yyyyMMdd")]
    if "yy" in bare and "yyyy" not in bare:
        return [Issue("EDI-DATE-001", m.line, f"pattern '{pattern}' has a two-digit year; use yyyyMMdd (CCYYMMDD)")]
    return []


_NUM = {"N": re.compile(r"^-?\d+$"), "R": re.compile(r"^-?(?:\d+\.?\d*|\.\d+)$")}


def _valid_date(v: str) -> bool:
    for fmt in ("%Y%m%d", "%Y-%m-%d") if len(v) != 6 else ("%y%m%d",):
        try:
            _dt.datetime.strptime(v, fmt)
            return True
        except ValueError:
            continue
    return False


def _valid_time(v: str) -> bool:
    m = re.fullmatch(r"(\d\d)(\d\d)(\d\d)?\d{0,2}", v.replace(":", ""))
    return bool(m) and int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3) or 0) < 60


def _check_literal(m: Node, tdef: Node | None, value: str | None) -> list[Issue]:
    if value is None:
        return []
    out = []
    to = m.attrs.get("to") or ""
    src = tdef.attrs if tdef is not None else m.attrs
    codes = (tdef.attrs.get("codes") or "").split() if tdef is not None else []
    if codes and value not in codes:
        out.append(Issue("EDI-CODE-002", m.line, f"'{value}' is not in the code list of {to} ({' '.join(codes[:12])}"
                         f"{' …' if len(codes) > 12 else ''})"))
    typ = src.get("type")
    lo, hi = _int(src.get("minLength")), _int(src.get("maxLength"))
    if hi is not None and len(value) > hi:
        out.append(Issue("EDI-MAP-002", m.line, f"'{value}' is {len(value)} characters; {to} holds at most {hi}"))
    elif lo is not None and len(value) < lo and value != "":
        out.append(Issue("EDI-MAP-002", m.line, f"'{value}' is {len(value)} characters; {to} needs at least {lo}"))
    if typ in ("DT", "date") and not _valid_date(value):
        out.append(Issue("EDI-DATE-001", m.line, f"'{value}' is not a valid CCYYMMDD date for {to}"))
    elif typ in ("TM", "time") and not _valid_time(value):
        out.append(Issue("EDI-MAP-002", m.line, f"'{value}' is not a valid HHMM[SS] time for {to}"))
    elif typ in _INTEGERS or re.fullmatch(r"N\d", typ or ""):
        if not _NUM["N"].match(value):
            out.append(Issue("EDI-MAP-002", m.line, f"'{value}' is not an integer ({typ}) for {to}"))
    elif typ in ("R", "decimal", "n") and not _NUM["R"].match(value):
        out.append(Issue("EDI-MAP-002", m.line, f"'{value}' is not a number ({typ}) for {to}"))
    return out


def _dt_document(root: Node, dt: _Defs, nodes: list[Node]) -> list[Issue]:
    out: list[Issue] = []
    maps = [n for n in nodes if n.tag == "map"]
    out += _duplicates(maps, "id", "mapping")
    for side in (dt.source, dt.target):
        if side is None:
            continue
        fields = [c for c in side.children if c.tag == "field"]
        out += _duplicates(fields, "path", "field")
        if len(fields) != len(side.children):
            for parent in side.iter():
                if parent.tag in ("source", "target", "loop"):
                    out += _duplicates((c for c in parent.children if c.tag == "loop"), "id", "loop")
                if parent.tag == "segment":
                    out += _duplicates(parent.children, "id", "element")
    # two unconditional mappings to the same target
    seen: dict[str, Node] = {}
    for m in maps:
        if m.attrs.get("when") or _in_group(m):
            continue
        key = (m.attrs.get("to") or "").strip()
        if not key:
            continue
        if key in seen:
            out.append(Issue("EDI-FMT-004", m.line, f"{key} is mapped twice without a condition (first on line "
                             f"{seen[key].line}); the second silently wins"))
        else:
            seen[key] = m
    # mandatory target elements left unmapped
    if dt.target is not None and dt.tgt_index is not None:
        mapped: set[int] = set()
        for n in nodes:
            if n.tag in ("map", "default") and n.attrs.get("to"):
                d = dt.target_def(n.attrs.get("to"))
                if d is not None:
                    mapped.add(id(d))
        out += _unmapped(dt.target, mapped)
    return out


def _in_group(m: Node) -> bool:
    p = m.parent
    while p is not None:
        if p.tag == "group":
            return True
        p = p.parent
    return False


def _mandatory(n: Node) -> bool:
    return (n.attrs.get("usage") or "O") in ("M", "R")


def _unmapped(side: Node, mapped: set[int]) -> list[Issue]:
    out = []

    def walk(node: Node, required: bool) -> None:
        for c in node.children:
            if c.tag == "loop":
                walk(c, required and _mandatory(c))
            elif c.tag == "segment":
                elems = [e for e in c.children if e.tag == "element"]
                used = any(id(e) in mapped for e in elems)
                if (required and _mandatory(c)) or used:
                    for e in elems:
                        if _mandatory(e) and id(e) not in mapped:
                            out.append(_unmapped_issue(e, e.attrs.get("id"), f"segment {c.attrs.get('id')}"))
            elif c.tag == "field" and required and _mandatory(c) and id(c) not in mapped:
                out.append(_unmapped_issue(c, c.attrs.get("path"), "the target"))

    walk(side, True)
    return out


def _unmapped_issue(node: Node, name: str, where: str) -> Issue:
    last = re.escape(_last(name))
    return Issue("EDI-MAP-001", node.line, f"mandatory {name} of {where} is not mapped and has no default",
                 hint=rf'<map\b[^>]*\bto="(?:[^"]*[.\]])?{last}(?:\[\])?"')


# --- flows -----------------------------------------------------------------------------------

def _flow_local(n: Node) -> list[Issue]:
    out = []
    if n.tag == "channel" and not n.attrs.get("charset"):
        out.append(Issue("EDI-ENV-003", n.line, f"channel '{n.attrs.get('id') or '?'}' declares no charset"))
    if n.tag == "onError":
        retries = _int(n.attrs.get("retries"))
        if not n.attrs.get("deadLetter"):
            out.append(Issue("EDI-FLOW-002", n.line, "onError without a deadLetter: after the last retry the "
                             "document is lost"))
        if n.attrs.get("retries") is not None and (retries is None or retries < 0 or retries > S.MAX_RETRIES):
            out.append(Issue("EDI-FLOW-002", n.line, f"retries=\"{n.attrs.get('retries')}\" is not a bounded count "
                             f"(0..{S.MAX_RETRIES})"))
    return out


def _flow_document(doc: Document, files: Files) -> list[Issue]:
    root = doc.root
    out: list[Issue] = []
    out += _duplicates((n for n in root.iter() if n is not root and n.attrs.get("id")), "id", "element")
    channels = {c.attrs.get("id"): c for c in root.iter("channel") if c.attrs.get("id")}
    steps_node = root.find("steps")
    steps = steps_node.children if steps_node is not None else []
    direction = root.attrs.get("direction")
    for s in steps:
        if s.tag in ("receive", "send") and s.attrs.get("channel"):
            ch = channels.get(s.attrs.get("channel"))
            want = "inbound" if s.tag == "receive" else "outbound"
            if ch is None:
                out.append(Issue("EDI-FMT-005", s.line, f"{s.tag} uses channel '{s.attrs.get('channel')}', which this flow "
                                 "does not declare"))
            elif ch.attrs.get("direction") and ch.attrs.get("direction") != want:
                out.append(Issue("EDI-FMT-005", s.line, f"{s.tag} uses the {ch.attrs.get('direction')} channel "
                                 f"'{s.attrs.get('channel')}'; a {s.tag} needs an {want} channel"))
    # step order: receive -> (deduplicate) -> validate -> translate -> route -> send
    ranks = [(S.STEP_ORDER[s.tag], s) for s in steps if s.tag in S.STEP_ORDER]
    tags = [s.tag for _, s in ranks]
    translate = next((s for s in steps if s.tag == "translate"), None)
    validate_ = next((s for s in steps if s.tag == "validate"), None)
    if direction == "inbound" and translate is not None:
        if validate_ is None:
            out.append(Issue("EDI-FLOW-001", translate.line, "inbound documents are translated without a validate "
                             "step before", hint=r"<validate\b"))
        elif steps.index(validate_) > steps.index(translate):
            out.append(Issue("EDI-FLOW-001", validate_.line, "validate runs after translate: invalid documents "
                             "are translated first"))
    best = -1
    for rank, s in ranks:
        if rank < best and not (s.tag == "validate" and translate is not None and "translate" in tags[: tags.index("validate")]):
            out.append(Issue("EDI-FLOW-005", s.line, f"<{s.tag}> comes after a later step; the order is receive, "
                             "deduplicate, validate, translate, route, send"))
        best = max(best, rank)
    if direction == "inbound" and steps and steps[0].tag != "receive":
        out.append(Issue("EDI-FLOW-005", steps[0].line, "an inbound flow starts with <receive>"))
    if direction == "outbound" and ranks and "send" not in tags:
        out.append(Issue("EDI-FLOW-005", steps_node.line, "an outbound flow ends with <send>", hint=r"<send\b"))
    # references to other files
    for s in steps:
        if s.tag == "translate" and s.attrs.get("transform"):
            out += _file_ref(doc.path, s, s.attrs.get("transform"), ".dt", files)
        if s.tag == "route" and s.attrs.get("flow"):
            out += _file_ref(doc.path, s, s.attrs.get("flow"), ".flow", files)
    # error handling
    if root.find("onError") is None:
        out.append(Issue("EDI-FLOW-002", root.line, "the flow has no <onError>: no retries, no dead letter",
                         hint=r"<onError\b"))
    # acknowledgement policy from the partner registry
    out += _ack(doc, root, files)
    return out


def _file_ref(flow_path: str, node: Node, ref: str, ext: str, files: Files) -> list[Issue]:
    target = posixpath.normpath(posixpath.join(posixpath.dirname(flow_path), ref))
    what = "transform" if ext == ".dt" else "flow"
    if target == posixpath.normpath(flow_path):
        return [Issue("EDI-FMT-005", node.line, f"the flow references itself ({ref}): an endless loop")]
    if not target.endswith(ext):
        return [Issue("EDI-FMT-005", node.line, f"{what} reference '{ref}' is not a {ext} file")]
    status, data = files.get(target)
    if status == MISSING:
        return [Issue("EDI-FMT-005", node.line, f"{what} '{ref}' does not exist ({target})")]
    if status == UNKNOWN:
        files.note(f"{flow_path}: reference to {target} not checked (the file is not in the diff and no "
                   "repository was given)")
        return []
    if ext == ".flow" and data is not None:  # a two-step cycle: A routes to B, B routes back to A
        other = read_document(target, "flow", data)
        if other.root is not None:
            for r in other.root.iter("route"):
                back = r.attrs.get("flow")
                if back and posixpath.normpath(posixpath.join(posixpath.dirname(target), back)) == posixpath.normpath(flow_path):
                    return [Issue("EDI-FMT-005", node.line, f"{ref} routes back to this flow: an endless loop")]
    return []


def _registry_entry(flow_path: str, partner: str, files: Files) -> tuple[str, Node | None]:
    """(status, the partner's entry) from the nearest partners.xml above the flow: OK with the entry,
    MISSING when a registry exists without the partner, UNKNOWN when no registry can be read. From a
    plain diff, the nearest registry the diff shows is used."""
    d = posixpath.dirname(flow_path)
    while True:
        path = posixpath.join(d, "partners.xml") if d else "partners.xml"
        for lines in files.fragments.get(path, ()):  # a modified registry seen only through the diff
            tops, _ = scan_fragment(lines)
            for n in (n for t in tops for n in t.iter("partner")):
                if n.attrs.get("id") == partner:
                    return OK, n
        status, data = files.get(path)
        if status == OK and data is not None:
            reg = read_document(path, "partners", data)
            if reg.root is None:
                return UNKNOWN, None
            entry = next((n for n in reg.root.iter("partner") if n.attrs.get("id") == partner), None)
            return (OK, entry) if entry is not None else (MISSING, None)
        if path in files.fragments or (status == UNKNOWN and files.read is not None):
            return UNKNOWN, None  # this registry is only partly visible, or could not be read
        if not d:
            return UNKNOWN, None
        d = posixpath.dirname(d)


def _ack(doc: Document, root: Node, files: Files) -> list[Issue]:
    partner = root.attrs.get("partner")
    if not partner:
        return []
    status, entry = _registry_entry(doc.path, partner, files)
    if status == MISSING:
        return [Issue("EDI-FMT-005", root.line, f"partner '{partner}' is not in the partner registry (partners.xml)")]
    if status == UNKNOWN or entry is None:
        files.note(f"{doc.path}: acknowledgement policy not checked (partner registry not available)")
        return []
    if root.attrs.get("direction") != "inbound":
        return []
    required = entry.attrs.get("acknowledgement")
    if not required or required == "none":
        return []
    ack = root.find("acknowledgement")
    if ack is None:
        return [Issue("EDI-ACK-001", root.line, f"partner '{partner}' requires a {required} acknowledgement; "
                      "the flow sends none", hint=r"<acknowledgement\b")]
    if ack.attrs.get("type") != required or ack.attrs.get("mode") == "never":
        got = "mode never" if ack.attrs.get("mode") == "never" else f"type {ack.attrs.get('type')}"
        return [Issue("EDI-ACK-001", ack.line, f"partner '{partner}' requires a {required} acknowledgement; "
                      f"the flow declares {got}")]
    return []
