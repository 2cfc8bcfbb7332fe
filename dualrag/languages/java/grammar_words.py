"""The Java grammar's construct vocabulary for rule queries (`retrieval/grammar_words.py` reads it):
which node types of tree-sitter-java say nothing, which are places rules speak of ("return in
finally"), and how a bare statement is wrapped to parse."""

from __future__ import annotations

from dualrag.languages.pack import GrammarWords

JAVA_GRAMMAR_WORDS = GrammarWords(
    # Shapes every snippet has: naming them in each query would drown the specific ones.
    common=frozenset({
        "program", "identifier", "type_identifier", "block", "class_body", "formal_parameters", "formal_parameter",
        "argument_list", "modifiers", "expression_statement", "scoped_identifier", "scoped_type_identifier",
        "method_declaration", "class_declaration", "local_variable_declaration", "variable_declarator",
        "field_access", "method_invocation", "string_literal", "string_fragment", "decimal_integer_literal",
        "parenthesized_expression", "assignment_expression", "binary_expression", "void_type", "integral_type",
        "generic_type", "type_arguments", "line_comment", "block_comment", "ERROR", "marker_annotation",
        "annotation", "field_declaration", "dimensions", "array_type", "constructor_body", "interface_body",
        "boolean_type", "floating_point_type", "this", "null_literal", "true", "false", "character_literal",
        "escape_sequence", "package_declaration", "import_declaration", "asterisk", "annotation_argument_list",
        "element_value_pair", "throws", "super", "superclass", "super_interfaces", "type_list",
        "explicit_constructor_invocation", "array_access", "update_expression", "unary_expression",
        "return_statement", "if_statement", "object_creation_expression",
    }),
    # Nodes whose inside is a place rules speak of.
    places=frozenset({
        "finally_clause", "catch_clause", "try_statement", "try_with_resources_statement", "for_statement",
        "enhanced_for_statement", "while_statement", "do_statement", "synchronized_statement", "switch_expression",
        "switch_block", "lambda_expression", "static_initializer", "constructor_declaration", "if_statement",
        "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration",
    }),
    # Everyday shapes that still matter by where they are ("return in finally", "new in a loop").
    placed=frozenset({"return_statement", "object_creation_expression", "if_statement"}),
    wrap="class _S {{\nvoid _m() {{\n{code}\n}}\n}}",
)
