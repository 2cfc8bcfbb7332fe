"""Rule ids of segmented documents: unique within their document, stable across runs.

A rule's id is the document's own code when it has one (`ABC07-J`, `R-12`, `SEC-04`), else
`<document slug>:<numbering or section slug>`. Two documents of one knowledge base may use the
same ids: the point id includes the document key (`RuleUnit.point_id`), so neither overwrites
the other. Within one document a repeated id gets a `~2`, `~3`... suffix (`dedupe_ids`).
"""

from __future__ import annotations

from collections.abc import Iterable

from dualrag.units import RuleUnit


def dedupe_ids(units: Iterable[RuleUnit]) -> list[RuleUnit]:
    """Make rule ids unique per document (`RuleSource.document`), in order: the first keeps its
    id, a repeat gets the next free `~N`. Units of different documents are left alone. Applying
    it twice changes nothing."""
    units = list(units)
    out = list(units)
    ids: dict[str, set[str]] = {}
    repeats: list[int] = []
    for index, unit in enumerate(units):  # a unique id is kept, even one a repeat would have wanted
        seen = ids.setdefault(unit.source.document, set())
        if unit.rule_id in seen:
            repeats.append(index)
        seen.add(unit.rule_id)
    for index in repeats:
        unit = units[index]
        seen = ids[unit.source.document]
        n = 2
        while f"{unit.rule_id}~{n}" in seen:
            n += 1
        seen.add(f"{unit.rule_id}~{n}")
        out[index] = unit.model_copy(update={"rule_id": f"{unit.rule_id}~{n}"})
    return out
