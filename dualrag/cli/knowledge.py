"""`dualrag index rules`, `rules inspect`, `search rules`, `kb stats|drop`: the rule knowledge bases.

The CLI is the one place that reaches both sides: `indexers` (reading documents) and the
online foundations (store, embedder).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dualrag import languages
from dualrag.cli.console import console as make_console
from dualrag.cli.console import line_progress
from dualrag.cli.options import config_option, debug_option, load_cli_settings, store_option
from dualrag.config import LimitsConfig, Settings
from dualrag.errors import UserError
from dualrag.source.language import language_of
from dualrag.source.text import neutralise, one_line
from dualrag.units import file_hash


def _settings(store: str | None, config_file: str | None) -> Settings:
    return load_cli_settings(config_file, store=store)


def _tools(settings: Settings):
    from dualrag.embedding import Bm25Encoder, get_embedder

    return get_embedder(config=settings.embedding), Bm25Encoder(settings.embedding.bm25)


def _err() -> Console:
    return make_console(stderr=True)



model_variants_option = click.option(
    "--model-variants/--no-model-variants", default=None,
    help="Have the configured model write a compliant near miss of each rule's example, which a mined detector "
         "must stay quiet on past its examples (default: [rules] model_variants, off).")


@click.group("index")
def index() -> None:
    """Index rule documents or a repository into the store."""


@index.command("rules")
@click.argument("paths", nargs=-1)
@click.option("--bundled", is_flag=True, help="Index the rules dualrag ships (knowledge/) now, as the first "
                                              "review otherwise does (a runner image or CI cache does it ahead).")
@click.option("--kb", default="team", show_default=True, help="Knowledge base to index into.")
@store_option
@click.option("--prune/--no-prune", default=True, show_default=True,
              help="Remove the rules these documents gave earlier and no longer give. Only these documents' "
                   "rules are ever removed; other documents of the knowledge base are never touched.")
@click.option("--dry-run", is_flag=True, help="Read and segment only: print the rules as they would be stored "
                                              "(as 'dualrag rules inspect' does); no store is opened.")
@click.option("--mine/--no-mine", default=None, help="Mine detectors from the rules' examples, verified before use "
                                                     "(default: [rules] mine, on).")
@click.option("--model-examples/--no-model-examples", default=None,
              help="Have the configured model write a counter-example for each rule that has none, in a "
                   "document showing fewer than 12 (default: [rules] model_examples, on with a model).")
@model_variants_option
@config_option
@debug_option
def index_rules(paths: tuple[str, ...], bundled: bool, kb: str, store: str | None, prune: bool, dry_run: bool,
                mine: bool | None, model_examples: bool | None, model_variants: bool | None,
                config_file: str | None) -> None:
    """Index rule documents (PDF, Word .docx, Markdown, HTML, text; folders too) as one unit per rule.

    All or nothing: every document is read and segmented before anything is written; if one
    cannot be read, each failing file is named and nothing is written (exit 2).

    Rules are keyed by their document (its path relative to the working directory), so two
    documents never overwrite each other; a rule id two documents share is reported and both
    rules are kept. Re-indexing a document updates its rules and, unless --no-prune, removes
    those it no longer has.

    Rule-set Markdown files (knowledge/README.md format) keep their ids, levels and
    detectors; their detectors run in every review.

    A rule with violating examples and no hand-written detector gets one mined from its
    examples when a candidate passes verification (every violating example, no compliant one of
    the document, quiet on the `[rules] mining_corpus`); `rules inspect` shows each.

    With a model configured (unless --no-model-examples), it writes a counter-example for each
    rule without one, from the rule's text alone (one short request per rule; a rule whose text
    is unchanged keeps the example it has). Search reads it like the document's own. A document
    that shows its own examples for 12 rules or more chooses its channels on them and gets none.
    """
    settings = _settings(store, config_file)
    if bundled or not paths:
        if not bundled or paths or dry_run:
            raise click.UsageError("give rule documents (PATHS), or --bundled alone")
        _index_bundled(settings)
        return
    start = time.perf_counter()
    console = _err()
    documents = _read_documents(paths, kb, console, settings.limits, _mining(settings, mine, model_variants))
    if dry_run:
        _print_documents(documents, "text", err=console)
        return
    for doc in documents:
        _print_report(console, doc.report)
        if doc.mining is not None:
            _say(console, doc.mining.summary())
    units = [u for doc in documents for u in doc.units]
    from dualrag.store import open_store

    writer = _example_writer(settings, model_examples)
    embedder, sparse = _tools(settings)
    pruned = 0
    if not console.is_terminal:  # the live line below shows only on a terminal
        _say(console, f"dualrag: embedding {len(units)} rules with {embedder.name}")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as progress, \
            contextlib.nullcontext() if console.is_terminal else line_progress() as lines:
        task = progress.add_task(f"embedding {len(units)} rules with {embedder.name}", total=None)

        def step(stage: str, done: int, total: int) -> None:  # embedding in batches, then writing
            if lines is not None:
                lines(f"{stage} rules with {embedder.name}" if stage == "embedding" else f"{stage} rules",
                      done, total)
            else:
                progress.update(task, description=f"{stage} {total} rules", completed=done, total=total or None)

        step("embedding", 0, len(units))
        with open_store(settings.store, settings.qdrant) as db:
            stored = db.rule_documents(kb, {u.rule_id for u in units})
            if writer is not None:
                units = _with_model_examples(writer, units, db, kb, console)
            for line in _duplicates(documents, stored):
                _say(console, line, "yellow")
            db.ensure(kb, embedder, sparse)
            # marked incomplete until every write below is done: a killed run leaves the mark
            db.mark_writing(kb, f"index rules of {len(documents)} document(s) started "
                                f"{time.strftime('%Y-%m-%d %H:%M:%S')}")
            report = db.upsert(kb, units, embedder, sparse, progress=step)
            for doc in documents:
                digest = file_hash(doc.path)
                # the same bytes under another key (indexed from another checkout, a copy): one document
                for other in sorted(db.documents_with_hash(kb, digest) - {doc.document}):
                    pruned += db.prune(kb, [], document=other)
                if prune:
                    pruned += db.prune(kb, [u.point_id for u in doc.units], document=doc.document)
                db.tag_document(kb, doc.document, digest)
            db.mark_writing(kb, None)
            progress.update(task, description="choosing the rule channels on the rules' counter-examples")
            _say(console, f"dualrag: {kb}: rule channels {_choose_channels(db, kb, embedder, sparse)}")
    seconds = time.perf_counter() - start
    click.echo(f"{kb}: {len(units)} rules from {len(documents)} document(s) ({report.added} added, "
               f"{report.updated} updated, {report.unchanged} unchanged{f', {pruned} pruned' if pruned else ''}), "
               f"{seconds:.1f}s")


def _example_writer(settings: Settings, wanted: bool | None):
    """The model that writes counter-examples (`--model-examples`), or None when not asked for."""
    if not (settings.rules.model_examples if wanted is None else wanted):
        return None
    from dualrag.llm import LLMFactory
    from dualrag.review.rule_example import ExampleWriter

    spec = settings.llm.model_for("rules")
    if spec is None:  # on by default, asked of a model only when one is configured
        if wanted:
            raise UserError("--model-examples needs a model: set [llm] model (or DUALRAG_LLM__MODEL)")
        return None
    client, _ = LLMFactory(settings.llm).for_reviewer("rules")
    return ExampleWriter(client, model=str(spec))


def _with_model_examples(writer, units: list, db, kb: str, console: Console) -> list:
    """`units` with the model's counter-examples; a rule stored with one for the same text keeps it."""
    from dualrag.progress import Ticker
    from dualrag.review.rule_example import seed_cache

    if db.exists(kb):
        seed_cache(writer, db.units(kb))
    with Ticker(lambda line: _say(console, f"dualrag: {line}")) as ticker:
        out = writer(units, progress=lambda done, total: ticker("model examples", done, total))
    _say(console, f"dualrag: {writer.asked} request(s) for model examples, "
                  f"{sum(1 for u in out if u.model_examples)} rule(s) carry one")
    for note in writer.notes:
        _say(console, note, "yellow")
    return out


def _choose_channels(db, kb: str, embedder, sparse) -> str:
    """The knowledge base chooses its rule channels on its own counter-examples (self_check.py);
    what it chose, in a line. A failure costs the choice (searches use the configured setting)."""
    from dualrag.retrieval.self_check import ensure_choice

    try:
        choice = ensure_choice(db, kb, embedder, sparse)
    except Exception as exc:  # noqa: BLE001 - the index is written; only the choice is lost
        return f"left to the configured setting: the self-check failed ({one_line(str(exc))})"
    return f"{choice.summary()}, {choice.seconds:.1f}s"


def _index_bundled(settings: Settings) -> None:
    """The bundled rules into their knowledge base, exactly as the first review would index them."""
    from dualrag.retrieval.stage import index_bundled
    from dualrag.store import open_store

    start = time.perf_counter()
    kb = settings.retrieval.bundled_kb
    embedder, sparse = _tools(settings)
    with open_store(settings.store, settings.qdrant) as db:
        index_bundled(db, kb, embedder, sparse)  # what it did is said on the progress channel
        count = db.count(kb)
    click.echo(f"{kb}: {count} bundled rules in {settings.store} ({embedder.name}), "
               f"{time.perf_counter() - start:.1f}s")


def _mining(settings: Settings, mine: bool | None, model_variants: bool | None = None):
    """The mining options of `[rules]` (None: not mining); the clean corpus is read here, and the
    model that writes variants is set up when asked for."""
    if not (settings.rules.mine if mine is None else mine):
        return None
    from dataclasses import replace

    from indexers.mining import options_from_config

    try:
        options = options_from_config(settings.rules)
    except (OSError, ValueError) as exc:
        raise UserError(f"[rules] mining_corpus: {exc}") from None
    writer = _variant_writer(settings, model_variants)
    return options if writer is None else replace(options, variants_for=writer)


def _variant_writer(settings: Settings, wanted: bool | None):
    """The model's variants of each rule's example (`--model-variants`), cached on disk, or None."""
    if not (settings.rules.model_variants if wanted is None else wanted):
        return None
    from dualrag.llm import LLMFactory
    from dualrag.review.rule_variants import CachedVariants, VariantWriter

    spec = settings.llm.model_for("rules")
    if spec is None:
        raise UserError("--model-variants needs a model: set [llm] model (or DUALRAG_LLM__MODEL)")
    client, _ = LLMFactory(settings.llm).for_reviewer("rules")
    writer = VariantWriter(client, model=str(spec), cache=CachedVariants.default())

    def variants_for(units):
        console = _err()
        out = writer(units)
        writer.cache.save()
        _say(console, f"dualrag: {writer.asked} request(s) for model variants, {len(out)} rule(s) carry them")
        for note in writer.notes:
            _say(console, note, "yellow")
        return out

    return variants_for


def _read_documents(paths: tuple[str, ...], kb: str, console: Console, limits: LimitsConfig | None = None,
                    mining=None):
    """Every document read and segmented (and mined), or UserError naming each one that failed
    (nothing written)."""
    from indexers.rules import read_rule_documents

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as progress, \
            contextlib.ExitStack() as stack:
        tasks: dict[str, int] = {}
        lines = None if console.is_terminal else stack.enter_context(line_progress())  # a CI log: plain lines

        def on_page(path: str, done: int, total: int) -> None:
            if lines is not None:
                lines(f"reading {Path(path).name}", done, total)
                if total and done >= total:  # then it is cut into rules, said while it takes
                    lines(f"segmenting {Path(path).name}", 0, 0)
                return
            if path not in tasks:
                tasks[path] = progress.add_task(f"reading {Path(path).name}", total=total)
            progress.update(tasks[path], completed=done)

        documents, failures = read_rule_documents(
            paths, kb, on_page=on_page, limits=limits, mining=mining,
            on_skip=lambda path, why: _say(console, f"dualrag: skipped {path}: {why}", "yellow"))
    if failures:
        for failure in failures:
            _say(console, f"dualrag: error: {failure.message}")
        total = len(documents) + len(failures)
        raise UserError(f"nothing was indexed: {len(failures)} of {total} document(s) could not be read") \
            from failures[0].error
    if not documents:
        raise UserError(f"no rule documents found in {', '.join(paths)}")
    return documents


def _say(console: Console, line: str, style: str | None = None) -> None:
    """One line on stderr, never wrapped, markup-free."""
    console.print(escape(neutralise(line)), style=style, soft_wrap=True)


def _print_report(console: Console, report) -> None:
    lines = report.lines()
    _say(console, lines[0])
    for line in lines[1:]:
        _say(console, line, "yellow")


MAX_DUPLICATE_LINES = 20


def _shown(key: str) -> str:
    """A stored document key as a person finds the file: relative to here when it is below."""
    try:
        return Path(key).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return key


def _duplicates(documents, stored: dict[str, set[str]]) -> list[str]:
    """`duplicate rule id R-12 in a.docx and b.pdf: both kept`, once per id that more than one
    document of the knowledge base gives (these documents, or others already stored)."""
    indexed = {doc.document for doc in documents}
    holders: dict[str, list[str]] = {}
    for doc in documents:  # named as given on the command line (their keys are resolved paths)
        for unit in doc.units:
            names = holders.setdefault(unit.rule_id, [])
            if str(doc.path) not in names:
                names.append(str(doc.path))
    for rule_id, names in holders.items():  # documents indexed earlier (these ones are being replaced)
        names.extend(sorted(_shown(key) for key in stored.get(rule_id, set()) - indexed))
    lines = [f"duplicate rule id {rule_id} in {' and '.join(names)}: both kept" if len(names) == 2 else
             f"duplicate rule id {rule_id} in {', '.join(names)}: all kept"
             for rule_id, names in holders.items() if len(names) > 1]
    if len(lines) > MAX_DUPLICATE_LINES:
        lines = [*lines[:MAX_DUPLICATE_LINES], f"... and {len(lines) - MAX_DUPLICATE_LINES} more duplicate rule ids"]
    return lines


def _mining_lines(unit, result, rejected: bool) -> list[str]:
    """What mining did for one rule: the detector it kept (pattern, the examples it was verified
    on, clean-corpus hits) or why none; with `rejected`, every candidate it turned down."""
    if result is None:
        return []
    det = unit.detect
    out: list[str] = []
    if det is not None and det.mined is not None:
        out += _form_lines(det, "mined")
        for form in det.also:
            out += _form_lines(form, "another form, mined")
        out += [f"verified on: {_fired_line(det, e)}" for e in unit.bad_examples[:3]]
        out.append(f"generalised: level {len(result.level)} ({', '.join(result.level)})" if result.level else
                   "generalised: level 0 (the examples' own shape: no more general step held)")
        turned = [c for c in result.climb if c.outcome != "kept"]
        if turned and rejected:
            out += [f"turned down, more general ({c.step}): {c.pattern} -- {c.outcome}" for c in turned]
        elif turned:
            out.append(f"{len(turned)} more general step(s) turned down, first ({turned[0].step}): {turned[0].outcome} "
                       "(--rejected lists them)")
    elif result.status == "written":
        out.append("hand-written detector kept (nothing mined)")
    elif result.status == "disabled":
        out.append("not mined: [rules] disable names it")
    else:
        out.append(f"no mined detector: {result.note}")
    if result.rejected:
        if rejected:
            out += [f"rejected {r.kind} ({r.bits:g} bits): {r.pattern} -- {r.reason}" for r in result.rejected]
        else:
            out.append(f"{len(result.rejected)} candidate(s) rejected, first: {result.rejected[0].reason} "
                       "(--rejected lists them)")
    return out


def _form_lines(det, label: str) -> list[str]:
    """A mined detector's (or one of its forms') pattern and how it was verified."""
    m = det.mined
    if m is None:
        return [f"{label} {det.kind}: {det.pattern}"]
    corpus = ("clean corpus not configured: that check was not run" if m.corpus_lines is None else
              f"clean corpus: {m.corpus_hits} hit(s) in {m.corpus_lines:,} lines "
              f"({(m.corpus_hits or 0) * 10_000 / max(1, m.corpus_lines):.2f} per 10k)")
    scope = det.scope
    where = ("" if scope is None else
             "".join([f" inside {' or '.join(scope.inside)}" if scope.inside else "",
                      f" on a receiver of type {' or '.join(scope.receiver_types)}" if scope.receiver_types else "",
                      f" with no {' or '.join(scope.absent)} around it" if scope.absent else ""]))
    verified = (f"verified: fires on its {m.violating} violating example(s), on none of the document's "
                f"{m.compliant} compliant example(s); {corpus}; {m.bits:g} bits")
    return [f"{label} {det.kind}: {det.pattern}{where}", verified]


def _fired_line(det, example: str) -> str:
    """The line of a violating example the detector fires on (as a diff fragment)."""
    from dualrag.rulebook import detector_rows

    lines = [ln for ln in example.splitlines() if not ln.strip().startswith(("```", "~~~"))]
    try:
        rows = detector_rows(det, det.languages[0] if det.languages else "java", "\n".join(lines))
    except Exception:  # noqa: BLE001 - shown, not checked, here
        rows = []
    row = rows[0] if rows else next((i for i, ln in enumerate(lines) if ln.strip()), 0)
    return f"line {row + 1}: {lines[row].strip()[:100] if row < len(lines) else ''}"


def _print_documents(documents, fmt: str, *, err: Console | None = None, rejected: bool = False) -> None:
    """The units as they would be stored, with each document's report (text), or all of it (json)."""
    from indexers.rules import estimate_tokens

    if fmt == "json":
        rows = [{
            "file": str(doc.path), "document": doc.document, "report": doc.report.to_dict(),
            "mining": doc.mining.to_dict() if doc.mining is not None else None,
            "units": [{"point_id": u.point_id, "tokens": estimate_tokens(u.full_text()), **u.model_dump(mode="json")}
                      for u in doc.units],
        } for doc in documents]
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for doc in documents:
        lines = doc.report.lines()
        if err is not None:  # index rules --dry-run: the report on stderr, as a real run prints it
            _print_report(err, doc.report)
            if doc.mining is not None:
                _say(err, doc.mining.summary())
        else:
            click.echo("\n".join(neutralise(line) for line in lines))
            if doc.mining is not None:
                click.echo(neutralise(doc.mining.summary()))
        mined = doc.mining.by_id() if doc.mining is not None else {}
        for u in doc.units:
            where = " > ".join(u.section) or "-"
            page = f", p.{u.source.page}" if u.source.page else ""
            first = next((ln.strip() for ln in u.text.splitlines() if ln.strip()), "")
            first = first if len(first) <= 120 else first[:119] + "…"
            detect = (f", detect {u.detect.kind}{' (mined)' if u.detect.mined else ''}" if u.detect else "")
            # rule text comes from the document: escapes shown, one line each
            click.echo(one_line(f"  {u.rule_id} [{u.level or '-'}] {u.title}"))
            click.echo(one_line(f"      {where}{page}; ~{estimate_tokens(u.full_text())} tokens{detect}"))
            click.echo(one_line(f"      {first}"))
            for line in _mining_lines(u, mined.get(u.rule_id), rejected):
                click.echo(one_line(f"      {line}"))
        click.echo("")


@click.group("rules")
def rules() -> None:
    """Look at rule documents the way the indexer understands them."""


@rules.command("inspect")
@click.argument("paths", nargs=-1, required=True, metavar="DOC...")
@click.option("--kb", default="team", show_default=True, help="Knowledge base the rules would go into.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--mine/--no-mine", default=None, help="Mine detectors from the examples as 'index rules' would "
                                                     "(default: [rules] mine, on).")
@click.option("--rejected", is_flag=True, help="List every mined candidate that failed verification, with why.")
@model_variants_option
@config_option
@debug_option
def rules_inspect(paths: tuple[str, ...], kb: str, fmt: str, mine: bool | None, rejected: bool,
                  model_variants: bool | None, config_file: str | None) -> None:
    """Print the rules DOC would be indexed as (id, level, title, section, page, tokens, first line),
    with what was understood of it, and each rule's mined detector (pattern, the examples it was
    verified on, clean-corpus hits, how far it was generalised past its examples and, with
    --rejected, each more general pattern turned down and why); folders and rule-set Markdown files
    too. Opens no store."""
    settings = _settings(None, config_file)
    documents = _read_documents(paths, kb, _err(), settings.limits,
                                 _mining(settings, mine, model_variants))  # as index rules
    _print_documents(documents, fmt, rejected=rejected)


def _search_languages(lang: str | None, code_file: str | None) -> tuple[str, ...]:
    """The languages whose rules a search wants, as the packs know them: a pack's language, every
    language of the packs that give a project type (`edi`), `other`, or the file's language."""
    if lang is None:
        return (language_of(code_file) if code_file else "java",)
    if lang == "other" or languages.pack_for(lang) is not None:
        return (lang,)
    typed = tuple(p.name for p in languages.packs() if p.project_type == lang)
    if typed:
        return typed
    known = sorted({p.name for p in languages.packs()} | {p.project_type for p in languages.packs() if p.project_type})
    raise UserError(f"--lang {lang!r}: no language pack or project type by that name "
                    f"(known: {', '.join(known)}, other)")


@click.group("search")
def search() -> None:
    """Search the knowledge bases."""


@search.command("rules")
@click.option("--code-file", metavar="FILE", help="Find the rules this code concerns.")
@click.option("--text", metavar="TEXT", help="Find the rules this text concerns.")
@click.option("--lang", metavar="LANG",
              help="Language of the code: a language pack (java, kotlin, python, sql, mybatis, edi-flow, ...), "
                   "a project type its packs give (edi: every EDI language) or other "
                   "(default: from the file name, else java).")
@click.option("--kb", "kbs", multiple=True, help="Knowledge base(s) to search (default: all).")
@click.option("--top-k", default=10, show_default=True, type=click.IntRange(1, 200))
@click.option("--mode", type=click.Choice(["hybrid", "dense", "sparse"]), default="hybrid", show_default=True)
@store_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@config_option
@debug_option
def search_rules(code_file: str | None, text: str | None, lang: str | None, kbs: tuple[str, ...], top_k: int,
                 mode: str, store: str | None, fmt: str, config_file: str | None) -> None:
    """Rules for a piece of code or text: one hit per rule, best first."""
    from dualrag.retrieval.query import build_rule_query
    from dualrag.retrieval.stage import rule_retriever
    from dualrag.store.session import StoreSession

    if (code_file is None) == (text is None):
        raise click.UsageError("give exactly one of --code-file FILE or --text TEXT")
    if code_file is not None:
        try:
            query_text = Path(code_file).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UserError(f"cannot read {code_file}: {exc.strerror}") from None
    else:
        query_text = text or ""
    searched = _search_languages(lang, code_file)
    settings = _settings(store, config_file)
    if kbs:
        settings = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"kbs": list(kbs)})})
    pack = languages.pack_for(searched[0])
    query = build_rule_query(query_text, language=searched[0], project_type=pack.project_type if pack else None)
    query = replace(query, languages=searched)
    with StoreSession.of(settings) as store:
        retriever, notes = rule_retriever(settings, store)
        if retriever is None or not retriever.kbs:
            raise UserError("; ".join(notes) or "no knowledge base to search: run 'dualrag index rules' first")
        hits = retriever.retrieve(query, top_k=top_k, mode=mode)
        settings_by_kb = _search_settings(retriever, store.rules())
    rows = [
        {
            "rule_id": h.unit.rule_id, "title": h.unit.title, "text": h.unit.full_text(),
            "level": h.unit.level, "section": " > ".join(h.unit.section), "source": h.unit.source.file,
            "kb": h.unit.source.kb, "page": h.unit.source.page, "score": round(h.score, 5), "rank": h.rank,
            "channels": settings_by_kb.get(h.unit.source.kb),
        }
        for h in hits
    ]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for note in notes:
        _err().print(f"note: {escape(one_line(note))}")
    for row in rows:
        page = f" p.{row['page']}" if row["page"] else ""
        click.echo(one_line(f"{row['rank']:>3}. {row['rule_id']} [{row['level'] or '-'}] {row['title']}  "
                            f"({row['kb']}: {row['source']}{page}; score {row['score']})"))


def _search_settings(retriever, db) -> dict[str, dict]:
    """Per knowledge base searched: the channel setting its rules were ranked with, and where it came from."""
    from dualrag.retrieval.self_check import read_choice, setting_of

    out = {}
    for kb in [*retriever.kbs, *retriever.fill]:
        group = retriever.fill if kb in retriever.fill else retriever.kbs
        choice = read_choice(db, kb) if kb in retriever.kb_channels else None
        out[kb] = {"setting": setting_of(retriever.setting(group)),
                   "self_check": choice.summary() if choice else None}
    return out


@click.group("kb")
def kb() -> None:
    """Inspect the knowledge bases in the store."""


@kb.command("stats")
@store_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@config_option
@debug_option
def kb_stats(store: str | None, fmt: str, config_file: str | None) -> None:
    """Knowledge bases, their rule counts, levels, sources and embedder."""
    from dualrag.store import open_store

    settings = _settings(store, config_file)
    stats = []
    with open_store(settings.store, settings.qdrant) as db:
        for name in db.knowledge_bases():
            manifest = db.manifest(name)
            units = db.units(name)
            stats.append({
                "kb": name, "rules": len(units), "embedder": manifest.embedding_model, "dim": manifest.dim,
                "levels": dict(Counter(str(u.level) if u.level else "none" for u in units)),
                "sources": dict(Counter(u.source.document for u in units)),
                "incomplete": db.incomplete(name),  # a write that never finished (killed): re-index
                "channels": _channels_of(db, name),
            })
    if fmt == "json":
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    if not stats:
        click.echo(f"no knowledge bases in {settings.store}")
        return
    table = Table(box=None)
    for column in ("kb", "rules", "levels", "sources", "embedder", "state", "channels"):
        table.add_column(column)
    for s in stats:
        state = f"INCOMPLETE: {s['incomplete']} never finished; index again" if s["incomplete"] else "complete"
        channels = s["channels"]["summary"] if s["channels"] else "configured"
        table.add_row(escape(s["kb"]), str(s["rules"]), ", ".join(f"{k} {v}" for k, v in s["levels"].items()),
                      str(len(s["sources"])), escape(f"{s['embedder']} ({s['dim']}d)"), escape(one_line(state)),
                      escape(channels))
    make_console().print(table)


def _channels_of(db, kb: str) -> dict | None:
    """The channel setting the knowledge base chose on its own counter-examples, with the figures."""
    from dualrag.retrieval.self_check import read_choice

    choice = read_choice(db, kb)
    return None if choice is None else {"chosen": choice.name or None, "setting": choice.setting,
                                        "summary": choice.summary(), "cases": choice.cases,
                                        "figures": choice.figures, "seconds": choice.seconds}


@kb.command("drop")
@click.argument("name", required=False)
@store_option
@config_option
@debug_option
def kb_drop(name: str | None, store: str | None, config_file: str | None) -> None:
    """Delete the knowledge base NAME and all its rules (index its documents again to rebuild it)."""
    from dualrag.store import open_store

    settings = _settings(store, config_file)
    with open_store(settings.store, settings.qdrant) as db:
        if not name:
            known = ", ".join(db.knowledge_bases()) or "none"
            raise UserError(f"name the knowledge base to drop (indexed in {settings.store}: {known})")
        if not db.exists(name):
            known = ", ".join(db.knowledge_bases()) or "none"
            raise UserError(f"no knowledge base '{name}' in store {settings.store} (indexed: {known})")
        db.drop(name)
    click.echo(f"dropped knowledge base '{name}'")
