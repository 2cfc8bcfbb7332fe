"""What tree-sitter-kotlin's node types are to mined detectors (`GrammarRoles`)."""

from __future__ import annotations

from dualrag.languages.pack import GrammarRoles

_LOOP = ("loop", "loops", "iteration", "循环", "遍历")

KOTLIN_ROLES = GrammarRoles(
    literals=frozenset({"number_literal", "float_literal", "string_literal", "multiline_string_literal",
                        "character_literal"}),
    comments=frozenset({"line_comment", "block_comment", "multiline_comment"}),
    headers=frozenset({"package_header", "import", "import_header", "import_list"}),
    declaring=(("variable_declaration", ""), ("parameter", ""), ("class_parameter", ""), ("function_declaration", "name"),
               ("class_declaration", "name"), ("object_declaration", "name"), ("catch_block", ""),
               ("lambda_parameters", "")),
    typed=(("variable_declaration", "user_type", "identifier"), ("variable_declaration", "nullable_type/user_type",
                                                                  "identifier"),
           ("parameter", "user_type", "identifier"), ("parameter", "nullable_type/user_type", "identifier"),
           ("class_parameter", "user_type", "identifier")),
    receivers=(("navigation_expression", "#0"),),
    places=frozenset({"finally_block", "catch_block", "try_expression", "for_statement", "while_statement",
                      "do_while_statement", "when_expression", "lambda_literal", "function_declaration",
                      "class_declaration", "object_declaration", "if_expression", "anonymous_initializer"}),
    arguments=frozenset({"value_arguments"}),
    functions=frozenset({"function_declaration"}),
    optional=frozenset({"modifiers", "annotation", "type_arguments", "type_parameters"}),
    constructs=(
        ("finally_block", ("finally",)), ("catch_block", ("catch", "异常")), ("try_expression", ("try",)),
        ("for_statement", _LOOP), ("while_statement", _LOOP), ("do_while_statement", _LOOP),
        ("when_expression", ("when",)), ("if_expression", ("if",)), ("as_expression", ("cast", "casts", "强制转换")),
        ("lambda_literal", ("lambda", "lambdas")), ("object_declaration", ("object", "singleton", "单例")),
        ("return_expression", ("return",)), ("elvis_expression", ("elvis", "?:")),
        ("!!", ("not-null assertion", "!!")), ("+", ("concatenation", "拼接")), ("==", ("==",)),
    ),
    naming=frozenset({"name", "call_expression#0", "navigation_expression#1"}),
    keywords=frozenset(["as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in",
                        "interface", "is", "null", "object", "package", "return", "super", "this", "throw", "true",
                        "try", "typealias", "typeof", "val", "var", "when", "while", "lateinit", "companion",
                        "data", "override", "private", "public", "internal", "protected", "suspend"]),
    identifiers=frozenset({"identifier"}),
    wrappers=(("fun __mined() {\n", "\n}"),),
)
