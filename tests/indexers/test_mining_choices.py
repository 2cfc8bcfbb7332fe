"""The mining settings chosen for a book leaving it out (`evaluation/mining/choices.py`)."""

from __future__ import annotations

from evaluation.mining.choices import BASELINE, DEFAULT, GRID, choose
from evaluation.mining.heldout import HeldOut
from indexers.mining import MiningOptions

BOOKS = ["pmd", "errorprone", "androidlint"]


def figures(tp: int, fn: int, fp: int = 0) -> HeldOut:
    return HeldOut(rules=3, tp=tp, fn=fn, fp=fp)


def even() -> dict[str, dict[str, HeldOut]]:
    return {s.name: {b: figures(30, 70) for b in BOOKS} for s in (BASELINE, *GRID)}


def test_the_other_books_held_out_recall_chooses_and_a_books_own_never_votes():
    heldout = even()
    heldout[GRID[-1].name]["errorprone"] = figures(50, 50)
    chosen = choose(heldout, BOOKS)
    assert chosen["pmd"][0] == GRID[-1] and chosen["androidlint"][0] == GRID[-1]
    assert chosen["errorprone"] == (GRID[0], ["pmd", "androidlint"])  # all alike: the first listed


def test_of_settings_that_recall_alike_the_more_precise_on_the_books_own_examples_wins():
    heldout = even()
    for s in GRID[:3]:
        heldout[s.name]["pmd"] = figures(30, 70, fp=3)  # 0.91: above the floor, recall alike
    assert choose(heldout, BOOKS)["errorprone"][0] == GRID[3]



def test_index_rules_mines_with_one_of_the_settings_the_books_were_scored_under():
    # a default moved outside the grid would ship a setting no figure was measured for
    assert DEFAULT is not None and DEFAULT.name == "context-first/general/absent+pairs"
    assert all(s.options(MiningOptions()) != MiningOptions() for s in GRID if s is not DEFAULT)
    assert BASELINE.options(MiningOptions()) != MiningOptions()
