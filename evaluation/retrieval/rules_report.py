"""What evaluation/retrieval/rules.py prints after a run: per book and structure the plain hybrid, the
configuration the *other* books choose (leave one book out: the figure a book nobody tuned for
gets), the per-KB self-check's choice and the shipped default, each against the floors of issue 24;
then the mean recall@5 of every configuration and what the books nothing was designed on choose."""

from __future__ import annotations

import statistics

from evaluation.core.heldout import choose, left_out
from evaluation.core.report import verdict
from evaluation.core.scoring import metrics
from evaluation.retrieval import fusion_folds
from evaluation.retrieval.cases import Book, source_book
from evaluation.retrieval.configs import (
    DEFAULT_BOTH,
    DEFAULT_MX,
    DEFAULT_MX_BOTH,
    DEFAULT_MX_FIT,
    PER_KB,
    PER_KB_MX,
    PLAIN,
    PLAIN_MX,
    Config,
)
from evaluation.retrieval.runner import Scored

OWN_FLOOR, OWN_MARGIN, DEV_FLOOR = 0.70, 0.10, 0.85


def recall5(results, book: Book, name: str, choosing_for: str = "") -> float:
    """Mean recall@5 over the book's structures; while choosing for another book, the learned
    fusion's figure is the one fitted without that book too (fusion_folds.NESTED)."""
    def key(structure: str) -> tuple[str, str, str]:
        nested = (book.name, structure, name + fusion_folds.NESTED + choosing_for)
        return nested if choosing_for and nested in results else (book.name, structure, name)
    return statistics.mean(metrics(results[key(s)])["R@5"] for s in book.documents)


def lobo(results, books: list[Book], configs: list[Config]) -> dict[str, str]:
    """For each book, the configuration the other books choose (best mean recall@5 over them;
    ties go to the simpler one, earlier in the grid). The dev guideline never votes: parts of
    dualrag were built on it (the construct vocabulary); nor does another edition of the same book."""
    voters = [b for b in books if b.documents and b.name != "dev"]
    return {book.name: choose(configs, [b for b in voters if source_book(b.name) != source_book(book.name)],
                              lambda c, b, book=book: recall5(results, b, c[0], book.name))[0]
            for book in books}


def report(scored: Scored, books: list[Book], configs: list[Config], default: str | None) -> dict:
    results, latency = scored.results, scored.latency
    chosen = lobo(results, books, configs)
    summary: dict = {"books": {}}
    header = f"{'book':>10} {'struct':>6} {'system':>34} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}"
    print("\n" + header)
    verdicts, mx_verdicts = [], []
    for book in books:
        for structure in book.documents:
            choice = scored.choices[(book.name, structure)]
            rows = [("plain hybrid", PLAIN), (f"dualrag LOBO: {chosen[book.name]}", chosen[book.name]),
                    (f"per-KB: {choice.name or 'default'}", PER_KB)]
            if default and default not in (PLAIN, chosen[book.name]):
                rows.append((f"default: {default}", default))
            if (book.name, structure, PER_KB_MX) in results:
                mx_choice = scored.choices[(book.name, structure, "mx")]
                rows += [("plain + model examples", PLAIN_MX), ("default + model examples", DEFAULT_MX),
                         (f"per-KB+mx: {mx_choice.name or 'default'}", PER_KB_MX)]
                rows += [(label, name) for label, name in (("default + mx, fitted with mx", DEFAULT_MX_FIT),
                                                           ("default + mx, fitted on both", DEFAULT_MX_BOTH),
                                                           ("default, fitted on both", DEFAULT_BOTH))
                         if (book.name, structure, name) in results]
            figures = {}
            for label, name in rows:
                m = metrics(results[(book.name, structure, name)])
                figures[label] = m
                print(f"{book.name:>10} {structure:>6} {label[:34]:>34} " + " ".join(f"{m[k]:6.3f}" for k in
                                                                                   ("R@1", "R@5", "R@10", "MRR")))
            plain, ours = figures["plain hybrid"], figures[f"dualrag LOBO: {chosen[book.name]}"]
            floor = DEV_FLOOR if book.name == "dev" else max(OWN_FLOOR, plain["R@5"] + OWN_MARGIN)
            ok = ours["R@5"] >= floor - 1e-9 and (book.name == "dev" or ours["R@1"] >= plain["R@1"] - 1e-9)
            verdicts.append(ok)
            print(f"{'':>10} {'':>6} {'floor':>34} recall@5 >= {floor:.3f}"
                  + ("" if book.name == "dev" else f", recall@1 >= {plain['R@1']:.3f}") + f": {verdict(ok)}"
                  + f"   (plain search {latency[(book.name, structure)]:.0f} ms/query)")
            own = figures[f"per-KB: {choice.name or 'default'}"]
            own_ok = own["R@5"] >= floor - 1e-9 and (book.name == "dev" or own["R@1"] >= plain["R@1"] - 1e-9)
            print(f"{'':>10} {'':>6} {'per-KB floor':>34} {verdict(own_ok)}; self-check chose "
                  f"{choice.summary()} in {choice.seconds:.1f} s")
            if (book.name, structure, PER_KB_MX) in results:
                mx = figures[f"per-KB+mx: {scored.choices[(book.name, structure, 'mx')].name or 'default'}"]
                mx_ok = mx["R@5"] >= floor - 1e-9 and (book.name == "dev" or mx["R@1"] >= plain["R@1"] - 1e-9)
                mx_verdicts.append(mx_ok)
                print(f"{'':>10} {'':>6} {'per-KB + model examples floor':>34} {verdict(mx_ok)} "
                      f"(against the plain hybrid on the document as written)")
            summary["books"][f"{book.name}/{structure}"] = {"lobo_config": chosen[book.name], **{
                label: m for label, m in figures.items()}, "pass": ok, "per_kb_pass": own_ok,
                "self_check": choice.model_dump()}
    # The shipped default: what the books no channel was designed on choose (dev shaped the construct
    # vocabulary, the examples channel and the tie-break weight, so it has no vote here).
    fresh = [b for b in books if b.documents and b.name != "dev"] or [b for b in books if b.documents]
    overall = choose(configs, fresh, lambda c, b: recall5(results, b, c[0]))
    print("\nmean recall@5 over all books, per configuration:")
    ranking = sorted(configs, key=lambda c: -statistics.mean(recall5(results, b, c[0]) for b in books if b.documents))
    for name, _ in ranking:
        per = " ".join(f"{b.name}={recall5(results, b, name):.3f}" for b in books if b.documents)
        print(f"  {name:40} {statistics.mean(recall5(results, b, name) for b in books if b.documents):.3f}  {per}")
    print(f"\nthe books nothing was designed on ({', '.join(b.name for b in fresh)}) choose: {overall[0]}"
          f"  (the shipped default should be this)")
    print(f"floors: {sum(verdicts)}/{len(verdicts)} book/structure rows PASS"
          + (f"; with the model's examples (per-KB): {sum(mx_verdicts)}/{len(mx_verdicts)}" if mx_verdicts else ""))
    summary.update(chosen=chosen, overall=overall[0])
    with_mx = [b for b in fresh if all((b.name, s, DEFAULT_MX) in results for s in b.documents)]
    if default and len(with_mx) > 1:
        gains = examples_lobo(results, with_mx, default)
        print("the model's examples, each book left out (the other books' mean recall@5 gain, default with - "
              "without): " + " ".join(f"{name}={'on' if gain > 0 else 'off'} ({gain:+.3f})"
                                       for name, gain in gains.items()))
        summary["model_examples_lobo"] = gains
    return summary


def examples_lobo(results, books: list[Book], default: str) -> dict[str, float]:
    """For each book, what the model's examples add to the default's recall@5 on the other books:
    whether they stay on is chosen without the book they are scored on, like every channel."""
    gain = {b.name: recall5(results, b, DEFAULT_MX) - recall5(results, b, default) for b in books}
    return {b.name: statistics.mean(gain[o.name] for o in others)
            for b, others in left_out(books, group=lambda b: source_book(b.name))}
