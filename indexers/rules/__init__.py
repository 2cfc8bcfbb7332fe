"""Rule documents into rule units: ``segment`` one document, ``index_documents`` many.

``RuleSegmenter`` is the same segmentation as a llama-index node parser, so it can sit in an
``IngestionPipeline`` after any LlamaHub reader: each output ``TextNode`` is one rule, its
``id_`` the unit's point id and its metadata the unit (``metadata["rule_unit"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import BaseNode, Document, TextNode

from dualrag.units import RuleUnit
from indexers.readers import SUPPORTED_SUFFIXES, DocumentError, PageCallback, read_document

from .segmenter import segment_documents

__all__ = ["RuleSegmenter", "DocumentError", "index_documents", "segment", "unit_from_node", "segment_documents"]


def segment(path_or_docs: str | Path | Sequence[Document], kb: str, *,
            on_page: PageCallback | None = None) -> list[RuleUnit]:
    """One ``RuleUnit`` per rule of a document path (read here) or of already-read Documents."""
    if isinstance(path_or_docs, (str, Path)):
        docs = read_document(path_or_docs, on_page=on_page)
        units = segment_documents(docs, kb)
        # the source file is named as the caller gave it
        return [u.model_copy(update={"source": u.source.model_copy(update={"file": str(path_or_docs)})}) for u in units]
    return segment_documents(list(path_or_docs), kb)


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUPPORTED_SUFFIXES))
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
