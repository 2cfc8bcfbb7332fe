"""Spring Boot configuration: `application*.yml|yaml|properties` and `bootstrap*` beside them.
Keys are members, named by their full dotted path (`spring.datasource.password`): a YAML mapping
that holds further keys is a container, a key with a value a member (tree-sitter-yaml); in a
`.properties` file every `key=value` entry (continuation lines included) is a member. Rules and
detectors in `knowledge/spring/` (plaintext secrets, `ddl-auto` update/create in a production
profile, actuator endpoints exposed with `*`). The code index keeps every key (`symbols.py`), the
definition `@Value("${...}")` and `@ConfigurationProperties` in Java and Kotlin are linked to."""

from __future__ import annotations

import re
from functools import lru_cache

from dualrag.languages.pack import Grammar, LanguagePack, SymbolReader

GRAMMAR = Grammar("yaml", "tree_sitter_yaml")
_PAIR_QUERY = "(block_mapping_pair) @pair"


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from dualrag.languages.grammars import language

    return Query(language(GRAMMAR), _PAIR_QUERY)


def yaml_members(text: str, *, fallback_type: str = ""):
    from tree_sitter import QueryCursor

    from dualrag.languages.grammars import parser
    from dualrag.parsing.model import Member
    from dualrag.parsing.nesting import containers, in_source_order

    root = parser(GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    source = root.text or b""
    pairs = in_source_order(QueryCursor(_query()).captures(root).get("pair", []))
    paths: list[str] = []
    members = []
    for node, up in zip(pairs, containers(pairs)):
        key_node = node.child_by_field_name("key")
        key = source[key_node.start_byte:key_node.end_byte].decode("utf-8", "replace").strip("'\" ") \
            if key_node is not None else "?"
        path = f"{paths[up]}.{key}" if up >= 0 else key
        paths.append(path)
        value = node.child_by_field_name("value")
        container = value is not None and any(c.type == "block_mapping" for c in value.named_children)
        start, end = node.start_point.row + 1, node.end_point.row + (0 if node.end_point.column == 0 else 1)
        end = max(start, end)
        line = source[node.start_byte:min(node.end_byte, node.start_byte + 300)].decode("utf-8", "replace")
        members.append(Member(
            kind="section" if container else "key", name=path, signature=" ".join(line.split("\n")[0].split()),
            start=start, end=end, cuts=tuple(range(start + 1, end + 1)) if not container else (),
            groups=not container,
        ))
    return tuple(members), [], root


_PROPERTY = re.compile(r"^\s*(?![#!])([^=:\s][^=:]*?)\s*[=:]")


def properties_members(text: str, *, fallback_type: str = ""):
    """One member per `key=value` / `key: value` entry; a line ending in `\\` continues it."""
    from dualrag.parsing.model import Member

    members = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        match = _PROPERTY.match(lines[i])
        start = i
        while lines[i].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
        if match:
            members.append(Member(kind="key", name=match.group(1).strip(), signature=lines[start].strip()[:300],
                                  start=start + 1, end=i + 1))
        i += 1
    return tuple(members), [], None


_NAMES = ("application*.yml", "application*.yaml", "bootstrap*.yml", "bootstrap*.yaml")


def _read(path: str, text: str, data: bytes):
    from dualrag.languages.spring.symbols import config_symbols

    return config_symbols(path, text)


READER = SymbolReader(language="spring", read=_read, globs=(
    *(f"*{n}" for n in _NAMES), "*application*.properties", "*bootstrap*.properties"), code=False)

YAML = LanguagePack(
    name="spring-yaml",
    description="Spring Boot configuration (YAML)",
    filenames=_NAMES,
    grammar=GRAMMAR,
    members=yaml_members,
    strict=False,
    symbols=READER,
    concepts=(
        ("secret-literal", r"(?i)(?:password|secret|token|api-?key|credentials?)\s*:", "password secret credential"),
        ("ddl-auto", r"(?i)ddl-auto", "schema generation hibernate ddl-auto"),
        ("actuator", r"(?i)management|actuator|exposure", "actuator endpoints exposure management"),
    ),
    rules="spring",
    fence="yaml",
    member_kinds=("section", "key"),
    containers=("section",),
    short_names=False,  # `spring.datasource.password` is the key's name, not a package and a member
)

PROPERTIES = LanguagePack(
    name="spring-properties",
    description="Spring Boot configuration (.properties)",
    filenames=("application*.properties", "bootstrap*.properties"),
    members=properties_members,
    strict=False,
    symbols=READER,
    concepts=YAML.concepts,
    rules="spring",
    fence="properties",
    member_kinds=("key",),
    short_names=False,
)
