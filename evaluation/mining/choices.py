"""The choices mining makes (lattice order, where the climb starts), each made leaving one book
out: for every book, the setting with the best held-out score on the *other* books that have
held-out rules (`HeldOut.score`: recall where precision holds 0.90); of settings that score alike,
the one more precise on those books' own examples, then the first listed.
The baseline — the miner before the lattice — is never a choice; it is printed beside.

Only the books the miner was developed on vote (`DEVELOPED_ON`); a book that arrived after the
choices were frozen (codeql, ruff) is only scored, with the setting those books choose. What a
setting scores is its held-out recall on the books' own examples: independent files never vote."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from indexers.mining import MiningOptions
from indexers.mining.lattice import ORDERS

from .heldout import HeldOut


@dataclass(frozen=True)
class Setting:
    name: str
    overrides: tuple[tuple[str, object], ...]

    def options(self, base: MiningOptions) -> MiningOptions:
        return replace(base, **dict(self.overrides))


DEVELOPED_ON = ("dev", "pmd", "errorprone", "androidlint")
# the miner before issue 42: one pattern over all of a rule's examples, not climbed
BASELINE = Setting("baseline", (("generalise", False), ("forms", "")))
# every setting names what it leaves off, so MiningOptions' defaults (the chosen setting) move none
_LATTICE = (("generalise", True), ("shape", ""), ("absence", False), ("names_max_hits_per_10k", None),
            ("forms", ""))
# what a climbed detector must keep to stay precise on code the book never showed (issue 42): a
# call's argument shape, the absence of the guard the book's compliant code adds
_PRECISION = (("kinds-shape", (("shape", "kinds"),)), ("count-shape", (("shape", "count"),)),
              ("absent", (("absence", True),)), ("count-shape+absent", (("shape", "count"), ("absence", True))),
              ("absent+strict-names", (("absence", True), ("names_max_hits_per_10k", 0.25))),
              ("count-shape+absent+strict-names", (("shape", "count"), ("absence", True),
                                                   ("names_max_hits_per_10k", 0.25))),
              # more forms of the mistake than one pattern over all the examples can hold (`forms.py`)
              ("pairs", (("forms", "pairs"),)), ("absent+pairs", (("absence", True), ("forms", "pairs"))),
              ("absent+each", (("absence", True), ("forms", "each"))))
GRID = tuple(Setting(f"{order}/{start}", (*_LATTICE, ("lattice", order), ("start", start)))
             for order in ORDERS for start in ("specific", "general")) + \
    tuple(Setting(f"context-first/general/{name}", (*_LATTICE, ("lattice", "context-first"), ("start", "general"), *extra))
          for name, extra in _PRECISION)

# the grid setting `index rules` mines with (MiningOptions' defaults), or None when no setting is it
DEFAULT = next((s for s in GRID if s.options(MiningOptions()) == MiningOptions()), None)


def choose(heldout: Mapping[str, Mapping[str, HeldOut]], books: list[str]) -> dict[str, tuple[Setting, list[str]]]:
    """book -> (the setting the other books choose, the books that voted). `heldout`: setting
    name -> book -> figures."""
    out = {}
    for book in books:
        voters = [b for b in books if b != book and b in DEVELOPED_ON and heldout[GRID[0].name][b].rules]
        def mean(s: Setting, voters=voters) -> float:
            return sum(heldout[s.name][b].score() for b in voters) / len(voters) if voters else 0.0

        def precise(s: Setting, voters=voters) -> float:
            found = [p for b in voters if (p := heldout[s.name][b].precision_own) is not None]
            return round(sum(found) / len(found), 3) if found else 0.0
        best = max(GRID, key=lambda s: (round(mean(s), 3), precise(s), -GRID.index(s)))
        out[book] = (best, voters)
    return out
