"""`dualrag index rules`, `dualrag search rules`, `dualrag kb stats`: the rule knowledge base.

The CLI is the one place that reaches both sides: `indexers` (reading documents) and the
online foundations (store, embedder).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dualrag.config import Settings, find_config_file, load_settings
from dualrag.diff.language import language_of
from dualrag.errors import UserError
from dualrag.rulebook import is_rule_set, load_rule_file

STORE_HELP = "Store directory (default: .dualrag/store, or 'store' in config)."


def _settings(store: str | None, config_file: str | None) -> Settings:
    path = Path(config_file) if config_file else find_config_file(None)
    if config_file and not path.is_file():
        raise UserError(f"config file not found: {config_file}")
    return load_settings(path, store=store)


def _tools(settings: Settings):
    from dualrag.embedding import Bm25Encoder, get_embedder

    return get_embedder(config=settings.embedding), Bm25Encoder(settings.embedding.bm25)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


@click.group("index")
def index() -> None:
    """Index rule documents or a repository into the store."""


@index.command("rules")
@click.argument("paths", nargs=-1, required=True)
@click.option("--kb", default="team", show_default=True, help="Knowledge base to index into.")
@click.option("--store", help=STORE_HELP)
@click.option("--prune", is_flag=True, help="Remove rules of these documents that are no longer in them.")
@click.option("--config", "config_file", metavar="FILE", help="Config file.")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def index_rules(paths: tuple[str, ...], kb: str, store: str | None, prune: bool, config_file: str | None,
                debug: bool) -> None:
    """Index rule documents (PDF, Word .docx, Markdown, HTML, text; folders too) as one unit per rule."""
    from dualrag.store import open_store
    from indexers.rules import index_documents

    settings = _settings(store, config_file)
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UserError(f"no such file or folder: {missing[0]}")
    start = time.perf_counter()
    console = _err()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        tasks: dict[str, int] = {}

        def on_page(path: str, done: int, total: int) -> None:
            if path not in tasks:
                tasks[path] = progress.add_task(f"reading {Path(path).name}", total=total)
            progress.update(tasks[path], completed=done)

        rule_sets, documents = _split_rule_sets(paths)
        units, failures = index_documents(documents, kb, on_page=on_page) if documents else ([], [])
        for path in rule_sets:  # our own format: ids, levels and detectors as written
            try:
                units.extend(load_rule_file(path, kb=kb))
            except UserError as exc:
                failures.append((str(path), str(exc)))
        embedder, sparse = _tools(settings)
        progress.add_task(f"embedding {len(units)} rules with {embedder.name}", total=None)
        with open_store(settings.store, settings.qdrant) as db:
            report = db.upsert(kb, units, embedder, sparse) if units else None
            pruned = 0
            if prune and units:
                for source in sorted({u.source.file for u in units}):
                    keep = [u.point_id for u in units if u.source.file == source]
                    pruned += db.prune(kb, keep, source_file=source)
    for path, message in failures:
        console.print(f"[red]failed[/red] {escape(path)}: {escape(message)}")
    seconds = time.perf_counter() - start
    documents = len({u.source.file for u in units})
    changed = f"{report.added} added, {report.updated} updated, {report.unchanged} unchanged" if report else "nothing"
    click.echo(f"{kb}: {len(units)} rules from {documents} document(s) ({changed}"
               f"{f', {pruned} pruned' if pruned else ''}), {len(failures)} failed, {seconds:.1f}s")
    if failures and not units:
        sys.exit(2)


def _split_rule_sets(paths: tuple[str, ...]) -> tuple[list[Path], list[str]]:
    """Rule-set Markdown files (knowledge/README.md format) apart from documents to segment.

    A folder that holds rule sets is a rule folder: its other Markdown files (the README that
    documents the format) are not rules; its PDFs, Word and HTML files are still documents."""
    rule_sets: list[Path] = []
    documents: list[str] = []
    for item in paths:
        path = Path(item)
        if not path.is_dir():
            (rule_sets.append(path) if is_rule_set(path) else documents.append(item))
            continue
        files = [p for p in sorted(path.rglob("*")) if p.is_file()]
        sets = [p for p in files if is_rule_set(p)]
        if not sets:
            documents.append(item)
            continue
        rule_sets.extend(sets)
        documents.extend(str(p) for p in files if p.suffix.lower() in (".pdf", ".docx", ".doc", ".html", ".htm"))
    return rule_sets, documents


@click.group("search")
def search() -> None:
    """Search the knowledge bases."""


@search.command("rules")
@click.option("--code-file", metavar="FILE", help="Find the rules this code concerns.")
@click.option("--text", metavar="TEXT", help="Find the rules this text concerns.")
@click.option("--lang", type=click.Choice(["java", "edi", "edi-flow", "edi-dt", "xml", "sql", "other"]),
              help="Language of the code (default: from the file name, else java).")
@click.option("--kb", "kbs", multiple=True, help="Knowledge base(s) to search (default: all).")
@click.option("--top-k", default=10, show_default=True, type=click.IntRange(1, 200))
@click.option("--mode", type=click.Choice(["hybrid", "dense", "sparse"]), default="hybrid", show_default=True)
@click.option("--store", help=STORE_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", "config_file", metavar="FILE", help="Config file.")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def search_rules(code_file: str | None, text: str | None, lang: str | None, kbs: tuple[str, ...], top_k: int,
                 mode: str, store: str | None, fmt: str, config_file: str | None, debug: bool) -> None:
    """Rules for a piece of code or text: one hit per rule, best first."""
    from dualrag.retrieval.query import build_rule_query
    from dualrag.retrieval.stage import open_rule_retriever

    if (code_file is None) == (text is None):
        raise click.UsageError("give exactly one of --code-file FILE or --text TEXT")
    if code_file is not None:
        try:
            query_text = Path(code_file).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise UserError(f"cannot read {code_file}: {exc.strerror}") from None
    else:
        query_text = text or ""
    language = lang or (language_of(code_file) if code_file else "java")
    language = "edi-dt" if language == "edi" else language
    settings = _settings(store, config_file)
    if kbs:
        settings = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"kbs": list(kbs)})})
    notes: list[str] = []
    project_type = "edi" if language.startswith("edi") else ("java" if language == "java" else None)
    query = build_rule_query(query_text, language=language, project_type=project_type)
    with open_rule_retriever(settings, notes) as retriever:
        if retriever is None or not retriever.kbs:
            raise UserError("; ".join(notes) or "no knowledge base to search: run 'dualrag index rules' first")
        hits = retriever.retrieve(query, top_k=top_k, mode=mode)
    rows = [
        {
            "rule_id": h.unit.rule_id, "title": h.unit.title, "text": h.unit.full_text(),
            "level": h.unit.level, "section": " > ".join(h.unit.section), "source": h.unit.source.file,
            "kb": h.unit.source.kb, "page": h.unit.source.page, "score": round(h.score, 5), "rank": h.rank,
        }
        for h in hits
    ]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for note in notes:
        _err().print(f"note: {escape(note)}")
    for row in rows:
        page = f" p.{row['page']}" if row["page"] else ""
        click.echo(f"{row['rank']:>3}. {row['rule_id']} [{row['level'] or '-'}] {row['title']}  "
                   f"({row['kb']}: {row['source']}{page}; score {row['score']})")


@click.group("kb")
def kb() -> None:
    """Inspect the knowledge bases in the store."""


@kb.command("stats")
@click.option("--store", help=STORE_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", "config_file", metavar="FILE", help="Config file.")
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
def kb_stats(store: str | None, fmt: str, config_file: str | None, debug: bool) -> None:
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
                "sources": dict(Counter(u.source.file for u in units)),
            })
    if fmt == "json":
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    if not stats:
        click.echo(f"no knowledge bases in {settings.store}")
        return
    table = Table(box=None)
    for column in ("kb", "rules", "levels", "sources", "embedder"):
        table.add_column(column)
    for s in stats:
        table.add_row(escape(s["kb"]), str(s["rules"]), ", ".join(f"{k} {v}" for k, v in s["levels"].items()),
                      str(len(s["sources"])), escape(f"{s['embedder']} ({s['dim']}d)"))
    Console(highlight=False).print(table)


def _attach_index_code() -> None:
    from dualrag.cli_index import index_code

    index.add_command(index_code)


_attach_index_code()
