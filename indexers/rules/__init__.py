"""Rule documents into rule units: ``segment`` one document, ``index_documents`` many.

``RuleSegmenter`` is the same segmentation as a llama-index node parser, so it can sit in an
``IngestionPipeline`` after any LlamaHub reader: each output ``TextNode`` is one rule, its
``id_`` the unit's point id and its metadata the unit (``metadata["rule_unit"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, TextNode

from dualrag.config import LimitsConfig
from dualrag.errors import UserError
from dualrag.rulebook import is_rule_set, load_rule_file
from dualrag.units import RuleUnit, document_key
from indexers.mining import MiningOptions, MiningReport, mine_book
from indexers.readers import SUPPORTED_SUFFIXES, DocumentError, PageCallback, read_document
from indexers.readers.caps import check_size, time_budget

from .ids import dedupe_ids
from .report import DocumentReport
from .segmenter import estimate_tokens, segment_documents, segment_with_reports

__all__ = [
    "DocumentError",
    "DocumentReport",
    "DocumentRules",
    "ReadFailure",
    "RuleSegmenter",
    "dedupe_ids",
    "estimate_tokens",
    "expand_documents",
    "index_documents",
    "read_rule_documents",
    "segment",
    "segment_documents",
    "segment_with_report",
    "unit_from_node",
]

# Documents in a folder that holds rule-set files (the rule set's README and notes are not rules).
_DOCUMENTS_BESIDE_RULE_SETS = (".pdf", ".docx", ".doc", ".html", ".htm", ".xhtml")


def segment_with_report(path: str | Path, kb: str, *, on_page: PageCallback | None = None,
                        limits: LimitsConfig | None = None) -> tuple[list[RuleUnit], DocumentReport]:
    """`segment` one document file, with what the segmenter understood of it. A rule-set
    Markdown file (knowledge/README.md format) is read as written: ids, levels and detectors.
    `limits`: the document caps (size, unpacked size, pages, paragraphs); DocumentError past one."""
    limits = limits or LimitsConfig()
    check_size(Path(path), limits)
    if is_rule_set(path):
        units = [_keyed(u, path) for u in load_rule_file(path, kb=kb)]
        report = DocumentReport(file=str(path), rule_set=True, rule_headings=len(units))
        report.summarise(units, estimate_tokens)
        return units, report
    docs = read_document(path, on_page=on_page, limits=limits)
    results = segment_with_reports(docs, kb)
    units = [_keyed(u, path) for found, _ in results for u in found]
    report = results[0][1] if results else DocumentReport(file=str(path))
    report.file = str(path)
    return dedupe_ids(units), report


def segment(path_or_docs: str | Path | Sequence[Document], kb: str, *,
            on_page: PageCallback | None = None) -> list[RuleUnit]:
    """One ``RuleUnit`` per rule of a document path (read here) or of already-read Documents."""
    if isinstance(path_or_docs, (str, Path)):
        # the source file is named as the caller gave it, the document keyed stably (document_key)
        return segment_with_report(path_or_docs, kb, on_page=on_page)[0]
    return segment_documents(list(path_or_docs), kb)


def _keyed(unit: RuleUnit, path: str | Path) -> RuleUnit:
    source = unit.source.model_copy(update={"file": str(path), "document": document_key(path)})
    return unit.model_copy(update={"source": source})


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


Skipped = Callable[[Path, str], None]


def folder_files(folder: Path, on_skip: Skipped | None = None) -> list[Path]:
    """Supported files under `folder`, hidden ones excepted. A symbolic link whose target lies
    outside the folder is not followed (a rules folder linking to /etc/passwd indexes nothing);
    `on_skip(path, reason)` hears of each."""
    root = folder.resolve()
    out = []
    for f in sorted(folder.rglob("*")):
        if _hidden(f, folder) or f.suffix.lower() not in SUPPORTED_SUFFIXES or not f.is_file():
            continue
        if not f.resolve().is_relative_to(root):  # a link, or a file under a linked folder
            if on_skip is not None:
                on_skip(f, f"symbolic link out of {folder} not followed")
            continue
        out.append(f)
    return out


def expand_documents(paths: Iterable[str | Path], on_skip: Skipped | None = None) -> list[Path]:
    """The document files under `paths`, in order, each once (by document key).

    A file is taken as given (an unsupported one fails when read). A folder is searched for
    supported files (`folder_files`); a folder that holds rule-set Markdown files is a rule
    folder: its other Markdown files (the README that documents the format) are not rules, its
    PDF, Word and HTML files still are."""
    out: dict[str, Path] = {}
    for item in paths:
        path = Path(item)
        if not path.is_dir():
            out.setdefault(document_key(path), path)
            continue
        files = folder_files(path, on_skip)
        if any(is_rule_set(f) for f in files):
            files = [f for f in files if is_rule_set(f) or f.suffix.lower() in _DOCUMENTS_BESIDE_RULE_SETS]
        for f in files:
            out.setdefault(document_key(f), f)
    return list(out.values())


@dataclass
class DocumentRules:
    """One document read and segmented: its units (ids unique within it) and its report; with
    mining, the units carry the detectors mined from their examples and `mining` says how."""

    path: Path
    document: str  # document_key(path)
    units: list[RuleUnit]
    report: DocumentReport
    mining: MiningReport | None = None


@dataclass
class ReadFailure:
    path: str
    message: str  # one line, naming the file
    error: BaseException


def read_rule_documents(paths: Iterable[str | Path], kb: str, *,
                        on_page: Callable[[str, int, int], None] | None = None,
                        limits: LimitsConfig | None = None, on_skip: Skipped | None = None,
                        mining: MiningOptions | None = None,
                        ) -> tuple[list[DocumentRules], list[ReadFailure]]:
    """Read and segment every document under `paths` (`expand_documents`); write nothing.

    A document that cannot be read, that passes a cap of `limits`, or in which no rule is found,
    is a failure; the others are still read, so every failure is known before the caller decides
    (all or nothing). `on_skip(path, reason)`: a file of a folder left out (a symlink out of it).
    `mining`: detectors are mined from each document's examples (`mining.mine_book`: the
    document is the book its compliant examples are taken from)."""
    done: list[DocumentRules] = []
    failures: list[ReadFailure] = []
    for path in expand_documents(paths, on_skip):
        callback = (lambda d, t, _p=str(path): on_page(_p, d, t)) if on_page else None
        try:
            with time_budget(path, limits or LimitsConfig()):  # a document that reads for minutes is refused
                units, report = segment_with_report(path, kb, on_page=callback, limits=limits)
            if not units:
                raise DocumentError(path, "no rules found in the document")
        except UserError as exc:  # DocumentError, RuleBookError: the message names the file
            message = str(exc)
            failures.append(ReadFailure(str(path), message if str(path) in message else f"{path}: {message}", exc))
        except Exception as exc:  # noqa: BLE001 - a broken file is reported with the others
            failures.append(ReadFailure(str(path), f"{path}: cannot read ({type(exc).__name__}: {exc})", exc))
        else:
            mined = None
            if mining is not None:
                units, mined = mine_book(units, mining, document=str(path))
                report.detectors = sum(1 for u in units if u.detect is not None)
            done.append(DocumentRules(path, document_key(path), units, report, mined))
    return done, failures


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(folder_files(p))
        else:
            out.append(p)
    return out


def index_documents(
    paths: Iterable[str | Path],
    kb: str,
    on_error: Callable[[str, str], None] | None = None,
    on_page: Callable[[str, int, int], None] | None = None,
) -> tuple[list[RuleUnit], list[tuple[str, str]]]:
    """Segment many documents (folders are searched for supported files).

    A bad document never stops the others: its ``(path, message)`` goes into ``failures`` and
    ``on_error(path, message)`` is called if given. ``on_page(path, done, total)`` reports progress.
    """
    units: list[RuleUnit] = []
    failures: list[tuple[str, str]] = []
    for path in _expand(paths):
        callback = (lambda done, total, _p=str(path): on_page(_p, done, total)) if on_page else None
        try:
            units.extend(segment(path, kb, on_page=callback))
        except DocumentError as exc:
            failures.append((str(path), str(exc)))
        except Exception as exc:  # noqa: BLE001 - one broken file must not stop the batch
            failures.append((str(path), f"{path}: cannot read ({type(exc).__name__}: {exc})"))
        else:
            continue
        if on_error is not None:
            on_error(*failures[-1])
    return units, failures


def unit_from_node(node: BaseNode) -> RuleUnit:
    return RuleUnit.model_validate(node.metadata["rule_unit"])


class RuleSegmenter(NodeParser):
    """llama-index node parser: Documents in, one TextNode per rule out."""

    kb: str = "rules"

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        docs = [n for n in nodes if isinstance(getattr(n, "text", None), str)]
        out: list[BaseNode] = []
        for unit in segment_documents(docs, self.kb):
            meta = {
                "rule_id": unit.rule_id,
                "title": unit.title,
                "level": unit.level.value if unit.level else None,
                "section": " > ".join(unit.section),
                "page": unit.source.page,
                "file": unit.source.file,
                "rule_unit": unit.model_dump(mode="json"),
            }
            out.append(TextNode(
                id_=unit.point_id,
                text=unit.full_text(),
                metadata=meta,
                excluded_embed_metadata_keys=["rule_unit", "file", "page"],
                excluded_llm_metadata_keys=["rule_unit"],
            ))
        return out
