"""What tree-sitter-sql's node types are to mined detectors (`GrammarRoles`): its keywords are named
nodes (`keyword_delete`), so a rule that says DELETE names one."""

from __future__ import annotations

from dualrag.languages.pack import GrammarRoles

SQL_ROLES = GrammarRoles(
    literals=frozenset({"literal", "float"}),
    comments=frozenset({"comment", "marginalia"}),
    places=frozenset({"statement", "subquery", "where", "from", "join", "select"}),
    constructs=(
        ("all_fields", ("select *", "all columns", "star", "wildcard")),
        ("where", ("where", "where clause", "条件")),
        ("subquery", ("subquery", "sub-query", "子查询")),
        ("keyword_drop", ("drop",)), ("keyword_delete", ("delete",)), ("keyword_update", ("update",)),
        ("keyword_truncate", ("truncate",)),
    ),
    naming=frozenset({"name"}),
    keywords=frozenset({"select", "from", "where", "update", "delete", "insert", "into", "values", "set", "drop",
                        "alter", "table", "create", "join", "on", "and", "or", "not", "null", "group", "order", "by",
                        "having", "limit", "truncate", "index", "as", "in", "like", "is"}),
    identifiers=frozenset({"identifier"}),
)
