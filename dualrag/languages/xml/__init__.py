"""Plain XML and Maven POMs: tree-sitter-xml; the root element's children are members
(`dualrag.parsing.xml`). Dialects with their own pack (EDI flows and transforms, MyBatis mappers)
are recognised before this one by extension or content."""

from __future__ import annotations

from dualrag.languages.pack import Grammar, LanguagePack

XML_GRAMMAR = Grammar("xml", "tree_sitter_xml", "language_xml")


def xml_members(text: str, *, fallback_type: str = ""):
    from dualrag.languages.grammars import parser
    from dualrag.parsing.xml import xml_members as members

    found, root = members(text, parser(XML_GRAMMAR))
    return found, [], root


def xml_too_big(text: str, limits=None) -> str | None:
    from dualrag.config import LimitsConfig
    from dualrag.parsing.xml import xml_shape

    limits = limits or LimitsConfig()
    return xml_shape(text, max_depth=limits.max_xml_depth, max_elements=limits.max_xml_elements)


XML = LanguagePack(
    name="xml",
    description="XML documents",
    extensions=(".xml", ".xsd", ".wsdl", ".xsl", ".xslt"),
    grammar=XML_GRAMMAR,
    members=xml_members,
    too_big=xml_too_big,
    concepts="edi",
    fence="xml",
    member_kinds=("element",),
)

MAVEN_POM = LanguagePack(
    name="maven-pom",
    description="Maven build files",
    filenames=("pom.xml",),
    grammar=XML_GRAMMAR,
    members=xml_members,
    too_big=xml_too_big,
    concepts="java",
    fence="xml",
    member_kinds=("element",),
)
