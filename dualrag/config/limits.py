"""Caps on every input (section `[limits]`): past one, a line is sampled, a file is skipped with
its reason, a review stops sending work with a note, or the command stops with exit 2. Hostile
or careless input then costs seconds, never minutes or gigabytes."""

from __future__ import annotations

from pydantic import Field

from dualrag.config.section import Section


class LimitsConfig(Section):
    # A diff: the whole input, one file, what one review reads.
    max_diff_mb: float = Field(256.0, gt=0, allow_inf_nan=False, description="refuse larger diffs (exit 2)")
    max_file_bytes: int = Field(2_000_000, gt=0, description="a file whose diff text is larger is skipped")
    max_review_bytes: int = Field(4_000_000, gt=0, description="files past this much diff text are skipped")
    max_line_chars: int = Field(4_000, ge=80, description="a longer changed line is reviewed as its first N characters")
    # What a review spends: 10 chunks of the default 60k tokens is 600k tokens of change per reviewer.
    max_chunks: int = Field(10, ge=1, description="chunks retrieved for and reviewed; the rest are not reviewed")
    max_llm_calls: int = Field(60, ge=1, description="LLM requests per review that grow with its chunks: "
                                                     "chunks x (reviewers + the model's rule query)")
    max_cost_usd: float | None = Field(
        None, gt=0, allow_inf_nan=False, description="estimated input cost of the reviewer requests of one review (prompt tokens x the "
                                "model's input price); chunks past it are not reviewed. None = no price cap")
    # Structured text: EDI .flow/.dt XML (tree-sitter's XML parse time grows with depth squared).
    max_xml_depth: int = Field(256, ge=1, description="deeper XML is not parsed into elements")
    max_xml_elements: int = Field(200_000, ge=1, description="XML with more elements is not parsed into elements")
    # Rule documents (`index rules`): all or nothing, so a cap stops the command with exit 2.
    max_document_mb: float = Field(64.0, gt=0, allow_inf_nan=False, description="a document (a .docx: its unpacked parts) above this is refused")
    max_zip_ratio: float = Field(100.0, gt=1, allow_inf_nan=False, description="a .docx part unpacking to more than N times its packed size is refused")
    # Embedding a rule costs ~0.1-0.3 s on 2 cores: 299 one-rule pages indexed in 114 s on a busy machine,
    # a 201-page book in 33 s on a quiet one. Longer books: raise it and expect minutes.
    max_pdf_pages: int = Field(250, ge=1, description="a PDF with more pages is refused")
    max_paragraphs: int = Field(50_000, ge=1, description="a document with more paragraphs is refused")
    max_table_cells: int = Field(50_000, ge=1, description="a document with more table cells is refused")
    max_document_seconds: float = Field(60.0, gt=0, allow_inf_nan=False,
                                        description="reading one document longer than this is stopped (exit 2)")
