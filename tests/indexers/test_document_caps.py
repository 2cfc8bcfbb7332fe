"""Caps on rule documents: a .docx zip bomb, unpacked size, PDF pages, paragraphs; folders never
lead out of themselves through a symlink. A cap is a DocumentError (nothing indexed, exit 2)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from dualrag.config import LimitsConfig
from indexers.readers import DocumentError, read_document
from indexers.rules import expand_documents, folder_files, read_rule_documents


def docx(path: Path, paragraphs: list[str], *, filler: int = 0) -> Path:
    """A .docx; `filler` bytes of one repeated paragraph packed into its body (a small bomb)."""
    import docx as python_docx

    doc = python_docx.Document()
    for text in paragraphs:
        doc.add_paragraph(text)
    doc.save(str(path))
    if filler:
        with zipfile.ZipFile(path) as src:
            parts = {i.filename: src.read(i) for i in src.infolist()}
        para = "<w:p><w:r><w:t>Close every stream.</w:t></w:r></w:p>"
        body = parts["word/document.xml"].decode()
        parts["word/document.xml"] = body.replace("<w:sectPr", para * (filler // len(para)) + "<w:sectPr", 1).encode()
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
            for name, data in parts.items():
                out.writestr(name, data)
    return path


def test_a_docx_packed_far_beyond_the_ratio_is_refused_unread(tmp_path):
    bomb = docx(tmp_path / "bomb.docx", ["R-1. Close streams."], filler=3_000_000)
    with pytest.raises(DocumentError, match="limits.max_zip_ratio"):
        read_document(bomb)
    with pytest.raises(DocumentError, match="limits.max_paragraphs"):  # past a looser ratio, the next cap
        read_document(bomb, limits=LimitsConfig(max_zip_ratio=10_000))


def test_unpacked_size_and_paragraph_caps(tmp_path):
    small = docx(tmp_path / "ok.docx", [f"R-{i}. Rule {i}." for i in range(30)])
    assert read_document(small)
    with pytest.raises(DocumentError, match="limits.max_paragraphs"):
        read_document(small, limits=LimitsConfig(max_paragraphs=10))
    with pytest.raises(DocumentError, match="limits.max_document_mb"):
        read_document(small, limits=LimitsConfig(max_document_mb=0.001))
    text = tmp_path / "rules.md"
    text.write_text("\n\n".join(f"- rule {i}" for i in range(30)))
    with pytest.raises(DocumentError, match="limits.max_paragraphs"):
        read_document(text, limits=LimitsConfig(max_paragraphs=10))


def test_pdf_pages_are_counted_before_any_page_is_read(tmp_path):
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(5):
        writer.add_blank_page(width=100, height=100)
    path = tmp_path / "many.pdf"
    with path.open("wb") as fh:
        writer.write(fh)
    with pytest.raises(DocumentError, match="limits.max_pdf_pages"):
        read_document(path, limits=LimitsConfig(max_pdf_pages=4))


def test_a_cap_fails_the_document_like_any_unreadable_one(tmp_path):
    path = tmp_path / "rules.md"
    path.write_text("# Rules\n\n## R-1. Close every stream\n\nAlways.\n")
    done, failures = read_rule_documents([path], "team", limits=LimitsConfig(max_document_mb=0.00001))
    assert not done and "limits.max_document_mb" in failures[0].message


def test_symlinks_out_of_a_folder_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# not a rule\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "team.md").write_text("# Rules\n")
    (rules / "inside.md").symlink_to(rules / "team.md")  # stays inside: followed
    (rules / "passwd.md").symlink_to(outside / "secret.md")
    (rules / "linked").symlink_to(outside, target_is_directory=True)
    skipped: list[tuple[Path, str]] = []
    names = [f.name for f in folder_files(rules, lambda p, why: skipped.append((p, why)))]
    assert names == ["inside.md", "team.md"]
    assert [p.name for p, _ in skipped] == ["passwd.md"] and "not followed" in skipped[0][1]
    assert "secret.md" not in {p.name for p in expand_documents([rules])}
