from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dualrag.errors import UserError
from indexers.readers import DocumentError, read_document
from indexers.rules import index_documents, segment

# ------------------------------------------------------------------ each reader


def test_pdf_reader_pages_and_progress(pdf_factory):
    path = pdf_factory([["第一页 1.【强制】甲"], ["第二页 page two"], ["third"]])
    seen = []
    docs = read_document(path, on_page=lambda done, total: seen.append((done, total)))
    assert [d.metadata["page"] for d in docs] == [1, 2, 3]
    assert [d.metadata["page_label"] for d in docs] == ["1", "2", "3"]
    assert "1.【强制】甲" in docs[0].text and "page two" in docs[1].text
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert all(d.metadata["format"] == "text" for d in docs)


def make_docx(path: Path) -> Path:
    import docx

    d = docx.Document()
    d.add_paragraph("目录", style="TOC Heading") if "TOC Heading" in [s.name for s in d.styles] else None
    d.add_heading("一、编程规约", level=1)
    d.add_heading("(一) 命名风格", level=2)
    d.add_paragraph("【强制】类名使用 UpperCamelCase 风格。", style="List Number")
    d.add_paragraph("正例：UserService / OrderDTO")
    d.add_paragraph("【推荐】方法名使用 lowerCamelCase 风格。", style="List Number")
    d.add_paragraph("反例：get_user()")
    table = d.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "缩写", "含义"
    table.cell(1, 0).text, table.cell(1, 1).text = "DTO", "数据传输对象"
    d.add_heading("(二) 常量定义", level=2)
    d.add_paragraph("1.【强制】不允许任何魔法值直接出现在代码中。")
    d.save(str(path))
    return path


def test_docx_reader_headings_numbering_tables(tmp_path):
    docs = read_document(make_docx(tmp_path / "rules.docx"))
    text = docs[0].text
    assert docs[0].metadata["format"] == "markdown"
    assert "# 一、编程规约" in text and "## (一) 命名风格" in text
    assert "1. 【强制】类名使用" in text and "2. 【推荐】方法名" in text  # Word's automatic numbering
    assert "| DTO | 数据传输对象 |" in text


def test_markdown_and_text_readers(tmp_path):
    md = tmp_path / "r.md"
    md.write_text("# Naming\n\n1. [Mandatory] Use camel case.\n", encoding="utf-8")
    (doc,) = read_document(md)
    assert doc.metadata["format"] == "markdown" and "# Naming" in doc.text

    txt = tmp_path / "r.txt"
    txt.write_bytes("一、规约\n1.【强制】甲乙丙。\n\f2.【推荐】丁戊。\n".encode("gb18030"))
    docs = read_document(txt)
    assert [d.metadata.get("page") for d in docs] == [1, 2]
    assert "【强制】甲乙丙" in docs[0].text


def test_html_reader_structure(tmp_path):
    html = tmp_path / "r.html"
    html.write_text(
        """<html><head><title>Rules</title><script>var x=1;</script></head><body>
        <nav>Home | About</nav><div id="toc"><a href="#a">1 Naming .... 3</a></div>
        <h1>1 Naming</h1><p>Intro text.</p>
        <ol><li>[Mandatory] Class names MUST use UpperCamelCase.</li><li>[Recommended] Keep names short.</li></ol>
        <pre>class userService {}</pre>
        <table><tr><th>Term</th><th>Meaning</th></tr><tr><td>DTO</td><td>data transfer object</td></tr></table>
        <footer>Copyright</footer></body></html>""",
        encoding="utf-8",
    )
    (doc,) = read_document(html)
    assert "# 1 Naming" in doc.text
    assert "1. [Mandatory] Class names" in doc.text and "2. [Recommended]" in doc.text
    assert "| DTO | data transfer object |" in doc.text and "```\nclass userService {}\n```" in doc.text
    assert "Home" not in doc.text and "Copyright" not in doc.text and "var x" not in doc.text and "...." not in doc.text


# ------------------------------------------------------------------ bad input


def _encrypted_pdf(src: Path, dst: Path) -> Path:
    import pypdf

    writer = pypdf.PdfWriter(clone_from=str(src))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    with dst.open("wb") as fh:
        writer.write(fh)
    return dst


def test_encrypted_pdf(pdf_factory, tmp_path):
    path = _encrypted_pdf(pdf_factory([["1.【强制】甲"]]), tmp_path / "locked.pdf")
    with pytest.raises(DocumentError, match="encrypted"):
        read_document(path)


def test_truncated_and_corrupt_pdf(pdf_factory, tmp_path):
    data = pdf_factory([["1.【强制】甲"] * 20] * 3).read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 3])
    with pytest.raises(DocumentError, match="corrupt|truncated|no text"):
        read_document(cut)
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    with pytest.raises(DocumentError, match="corrupt"):
        read_document(junk)
    fake = tmp_path / "fake.pdf"
    fake.write_text("hello, not a pdf", encoding="utf-8")
    with pytest.raises(DocumentError, match="not a PDF"):
        read_document(fake)


def test_scanned_pdf_suggests_ocr(pdf_factory):
    path = pdf_factory([], blank_pages=2)
    with pytest.raises(DocumentError, match="ocrmypdf"):
        read_document(path)


def test_legacy_doc_says_how_to_convert(tmp_path):
    doc = tmp_path / "old.doc"
    doc.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
    with pytest.raises(DocumentError, match="libreoffice --headless --convert-to docx"):
        read_document(doc)
    disguised = tmp_path / "old.docx"  # OLE file renamed to .docx
    disguised.write_bytes(doc.read_bytes())
    with pytest.raises(DocumentError, match="libreoffice"):
        read_document(disguised)


@pytest.mark.parametrize("name", ["e.pdf", "e.docx", "e.md", "e.html", "e.txt"])
def test_empty_files(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"" if not name.endswith(".md") else b"  \n\n")
    with pytest.raises(DocumentError, match="empty"):
        read_document(path)


def test_unsupported_missing_and_corrupt_docx(tmp_path):
    odd = tmp_path / "rules.xyz"
    odd.write_text("x", encoding="utf-8")
    with pytest.raises(DocumentError, match="unsupported file type '.xyz'"):
        read_document(odd)
    with pytest.raises(DocumentError, match="no such file"):
        read_document(tmp_path / "missing.pdf")
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"PK\x03\x04 not really a zip" * 10)
    with pytest.raises(DocumentError, match="corrupt"):
        read_document(bad)
    assert issubclass(DocumentError, UserError)


def test_index_documents_one_bad_document_does_not_stop_others(tmp_path):
    good = tmp_path / "good.md"
    good.write_text("# 规约\n\n1.【强制】甲乙丙。\n\n2.【推荐】丁戊己。\n", encoding="utf-8")
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"")
    errors = []
    units, failures = index_documents([bad, good, tmp_path / "nope.docx"], "kb", on_error=lambda p, m: errors.append(p))
    assert [u.rule_id for u in units] == ["good:1.1", "good:1.2"]
    assert [p for p, _ in failures] == [str(bad), str(tmp_path / "nope.docx")]
    assert "empty" in failures[0][1] and errors == [p for p, _ in failures]


def test_many_pages_stream_with_progress_in_bounded_time(pdf_factory):
    pages = [["团队手册", f"{i + 1}.【强制】第 {i + 1} 条规则，内容。", f"{i + 1}/240"] for i in range(240)]  # under limits.max_pdf_pages
    path = pdf_factory(pages)
    calls = []
    start = time.perf_counter()
    units = segment(path, "big", on_page=lambda d, t: calls.append(d))
    assert time.perf_counter() - start < 10
    assert calls == list(range(1, 241))
    assert len(units) == 240 and units[-1].source.page == 240


# ------------------------------------------------------------------ offline


def test_import_and_read_without_network(tmp_path, pdf_factory):
    pdf = pdf_factory([["一、规约", "1.【强制】甲乙丙。"]])
    md = tmp_path / "r.md"
    md.write_text("# A\n\n1. [Mandatory] Do it.\n", encoding="utf-8")
    code = textwrap.dedent(
        f"""
        import socket
        def refuse(*a, **k):
            raise RuntimeError("network access attempted")
        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from indexers.rules import segment, RuleSegmenter
        from llama_index.core.ingestion import IngestionPipeline
        from indexers.readers import read_document
        assert len(segment({str(pdf)!r}, "k")) == 1
        docs = read_document({str(md)!r})
        nodes = IngestionPipeline(transformations=[RuleSegmenter(kb="k")]).run(documents=docs)
        assert len(nodes) == 1, nodes
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_docx_tables_are_capped_by_cells_and_documents_by_time(tmp_path):
    import docx

    from dualrag.config import LimitsConfig
    from indexers.readers import DocumentError, read_document
    from indexers.readers.caps import time_budget

    path = tmp_path / "t.docx"
    d = docx.Document()
    d.add_paragraph("R-1. Close every stream.")
    table = d.add_table(rows=30, cols=4)
    table.cell(0, 0).text = "R-2"
    d.save(str(path))
    assert "| R-2 |" in read_document(path)[0].text
    with pytest.raises(DocumentError, match="limits.max_table_cells"):
        read_document(path, limits=LimitsConfig(max_table_cells=100))
    with pytest.raises(DocumentError, match="limits.max_document_seconds"), \
            time_budget(path, LimitsConfig(max_document_seconds=0.05)):
        while True:  # pure-Python work the timer interrupts
            pass
