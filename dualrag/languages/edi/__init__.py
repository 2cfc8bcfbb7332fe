"""EDI: `.flow` routes and `.dt` data transforms (XML, tree-sitter-xml; top-level elements are
members; `dualrag.edi` reads and validates them; the code index keeps flows, steps, transforms and
mappings), and EDI messages (`.edi`, `.x12`, `.edifact`: no structure). Rules in `knowledge/edi/`.
Any EDI file makes the change an EDI change, over Java."""

from __future__ import annotations

from dataclasses import replace

from dualrag.languages.pack import LanguagePack, Specialist, SymbolReader
from dualrag.languages.xml import XML_GRAMMAR, xml_members, xml_too_big


def _read(path: str, text: str, data: bytes):
    from dualrag.languages.edi.symbols import edi_symbols

    return edi_symbols(path, text, data)


# flows, transforms and the partner registry (`partners.xml`, read by this reader too)
READER = SymbolReader(language="edi", read=_read, globs=("*.flow", "*.dt", "*partners.xml"), code=False)
# every EDI file brings it: mappings, envelopes and partner values (prompts/edi.md)
REVIEWER = Specialist("edi", "EDI compliance reviewer", ("edi",), prompt="edi")

FLOW = LanguagePack(
    name="edi-flow",
    description="EDI routing flows",
    extensions=(".flow",),
    grammar=XML_GRAMMAR,
    members=xml_members,
    too_big=xml_too_big,
    symbols=READER,
    concepts="edi",
    project_type="edi",
    priority=2,
    rules="edi",
    fence="xml",
    member_kinds=("element",),
    containers=("edi-flow",),
    reviewers=(REVIEWER,),
)

DT = replace(FLOW, name="edi-dt", description="EDI data transforms", extensions=(".dt",))

MESSAGE = LanguagePack(
    name="edi-message",
    description="EDI messages (X12, EDIFACT)",
    extensions=(".edi", ".x12", ".edifact"),
    symbols=READER,
    concepts="edi",
    project_type="edi",
    priority=2,
    reviewers=(REVIEWER,),
)
