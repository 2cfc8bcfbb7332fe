"""MyBatis mapper XML: recognised by content (the mapper DOCTYPE, `<mapper namespace=`; or a
`*Mapper.xml` / `mapper/` path holding `<select id=` and the like), parsed with tree-sitter-xml.
Each `<select|insert|update|delete|sql|resultMap>` is a member named `namespace.id`, the name of
the Java mapper interface method it implements; the code index links the two both ways
(`symbols.py`, `dualrag.retrieval.code`). Rules in `knowledge/sql/` (`${}` interpolation,
SELECT *, UPDATE/DELETE without WHERE)."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from dualrag.languages.pack import LanguagePack, SymbolReader
from dualrag.languages.sql import REVIEWER as SQL_REVIEWER
from dualrag.languages.xml import XML_GRAMMAR, xml_too_big

_DIALECT = re.compile(r"<!DOCTYPE\s+mapper\b|mybatis\.org//DTD Mapper|ibatis\.apache\.org//DTD|<mapper\s+namespace\s*=")
_STATEMENT_TAG = re.compile(r"<(?:select|insert|update|delete)\s+[^>]*\bid\s*=")
_MAPPER_PATH = re.compile(r"(?:^|/)(?:mappers?|mybatis|sqlmap)/|mapper\.xml$", re.IGNORECASE)
STATEMENTS = ("select", "insert", "update", "delete")
_MEMBER_TAGS = (*STATEMENTS, "sql", "resultMap", "cache", "cache-ref", "parameterMap")


def sniff(path: str, text: str) -> bool:
    head = text[:200_000]
    return bool(_DIALECT.search(head) or (_MAPPER_PATH.search(path) and _STATEMENT_TAG.search(head)))


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from dualrag.languages.grammars import language

    return Query(language(XML_GRAMMAR), "(element) @element")


def mapper_members(text: str, *, fallback_type: str = ""):
    """Statements of a mapper: members named `namespace.id` (the namespace from `<mapper
    namespace=...>`, else `fallback_type`, the file's stem, when the text does not show it)."""
    from tree_sitter import QueryCursor

    from dualrag.languages.grammars import parser
    from dualrag.parsing.model import Member

    root = parser(XML_GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    source = root.text or b""
    elements = QueryCursor(_query()).captures(root).get("element", [])
    cut_lines = sorted({n.start_point.row + 1 for n in elements})
    namespace = ""
    match = re.search(r"<mapper\s+[^>]*namespace\s*=\s*[\"']([^\"']+)", text)
    if match:
        namespace = match.group(1)
    owner = namespace or fallback_type
    members = []
    for node in elements:
        tag, attrs, head = _start(node, source)
        if tag not in _MEMBER_TAGS or "id" not in attrs:
            continue
        start, end = node.start_point.row + 1, node.end_point.row + 1
        lo, hi = bisect.bisect_right(cut_lines, start), bisect.bisect_left(cut_lines, end)
        members.append(Member(
            kind=tag, name=f"{owner}.{attrs['id']}" if owner else attrs["id"], signature=head[:300],
            start=start, end=end, cuts=tuple(cut_lines[lo:hi]),
        ))
    # a statement nested in another (never in MyBatis) would double-group: keep the outermost
    members.sort(key=lambda m: (m.start, -m.end))
    kept, last_end = [], 0
    for m in members:
        if m.start > last_end:
            kept.append(m)
            last_end = m.end
    return tuple(kept), [], root


def _start(element, source: bytes) -> tuple[str, dict[str, str], str]:
    head = next((c for c in element.named_children if c.type in ("STag", "EmptyElemTag")), None)
    if head is None:
        return "", {}, ""
    text = source[head.start_byte:head.end_byte].decode("utf-8", "replace")
    tag = re.match(r"<\s*([\w:.-]+)", text)
    attrs = dict(re.findall(r"([\w:.-]+)\s*=\s*[\"']([^\"']*)[\"']", text))
    return (tag.group(1) if tag else ""), attrs, " ".join(text.split())


def _read(path: str, text: str, data: bytes):
    from dualrag.languages.mybatis.symbols import mapper_symbols

    return mapper_symbols(path, text)


PACK = LanguagePack(
    name="mybatis",
    description="MyBatis mapper XML",
    sniff=sniff,
    sniff_extensions=(".xml",),
    grammar=XML_GRAMMAR,
    members=mapper_members,
    too_big=xml_too_big,
    symbols=SymbolReader(language="mybatis", read=_read, globs=("*.xml",), code=False),
    concepts="java",
    rules="sql",
    fence="xml",
    member_kinds=_MEMBER_TAGS,
    reviewers=(SQL_REVIEWER,),
)
