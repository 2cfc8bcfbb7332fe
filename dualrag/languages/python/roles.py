"""What tree-sitter-python's node types are to mined detectors (`GrammarRoles`)."""

from __future__ import annotations

import keyword

from dualrag.languages.pack import GrammarRoles

_LOOP = ("loop", "loops", "iteration", "循环", "遍历")

PYTHON_ROLES = GrammarRoles(
    literals=frozenset({"integer", "float", "string"}),
    comments=frozenset({"comment"}),
    headers=frozenset({"import_statement", "import_from_statement", "future_import_statement"}),
    declaring=(("function_definition", "name"), ("class_definition", "name"), ("parameters", ""),
               ("typed_parameter", ""), ("default_parameter", "name"), ("typed_default_parameter", "name"),
               ("lambda_parameters", ""), ("as_pattern_target", ""), ("for_statement", "left"),
               ("assignment", "left"), ("augmented_assignment", "left"), ("list_splat_pattern", ""),
               ("dictionary_splat_pattern", ""), ("for_in_clause", "left"), ("global_statement", "")),
    typed=(("typed_parameter", "type", "identifier"), ("typed_default_parameter", "type", "name"),
           ("assignment", "type", "left"), ("assignment", "right/function", "left")),
    receivers=(("attribute", "object"),),
    places=frozenset({"finally_clause", "except_clause", "try_statement", "for_statement", "while_statement",
                      "with_statement", "function_definition", "class_definition", "lambda", "if_statement",
                      "list_comprehension", "dictionary_comprehension", "generator_expression"}),
    arguments=frozenset({"argument_list"}),
    functions=frozenset({"function_definition"}),
    optional=frozenset({"decorator", "type"}),
    constructs=(
        ("finally_clause", ("finally",)), ("except_clause", ("except", "exception", "exceptions", "异常")),
        ("try_statement", ("try",)), ("raise_statement", ("raise", "raises")),
        ("for_statement", _LOOP), ("while_statement", _LOOP), ("with_statement", ("with", "context manager")),
        ("lambda", ("lambda", "lambdas")), ("conditional_expression", ("ternary", "conditional expression", "三目")),
        ("assert_statement", ("assert", "assertion")), ("global_statement", ("global",)),
        ("list_comprehension", ("comprehension",)), ("return_statement", ("return",)),
        ("print_statement", ("print",)), ("+", ("concatenation", "拼接")), ("==", ("==",)), ("is", ("is",)),
    ),
    naming=frozenset({"name", "function", "attribute"}),
    keywords=frozenset(keyword.kwlist),
    identifiers=frozenset({"identifier"}),
)
