"""HTML with its structure: headings, paragraphs, numbered lists, tables, code.

llama-index's ``HTMLTagReader`` returns the text of one tag kind (``<section>`` by default) and
drops heading levels and list numbers; this reader renders the body as Markdown instead.
Navigation, headers, footers, scripts and elements marked as a table of contents are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from ._common import FORMAT_MARKDOWN, PageCallback, base_metadata, decode_text, ensure_text, read_bytes

_SKIP = {"script", "style", "nav", "header", "footer", "aside", "noscript", "template", "head", "form"}
_BLOCK_CONTAINERS = {"html", "body", "main", "article", "section", "div", "blockquote", "details", "figure"}
_TOC = re.compile(r"(^|[-_ ])(toc|table-of-contents)($|[-_ ])", re.I)


def _text(node) -> str:
    return " ".join(node.get_text(" ").split())


class StructuredHTMLReader(BaseReader):
    def __init__(self, on_page: PageCallback | None = None) -> None:
        self.on_page = on_page

    def load_data(self, file: str | Path, extra_info: dict | None = None) -> list[Document]:  # type: ignore[override]
        from bs4 import BeautifulSoup

        path = Path(file)
        soup = BeautifulSoup(decode_text(read_bytes(path)), "html.parser")
        blocks: list[str] = []
        self._walk(soup.body or soup, blocks, 0)
        text = "\n\n".join(b for b in blocks if b.strip())
        ensure_text(path, text)
        meta = base_metadata(path, FORMAT_MARKDOWN)
        title = soup.title.get_text(strip=True) if soup.title else None
        if title:
            meta["title"] = title
        meta.update(extra_info or {})
        if self.on_page is not None:
            self.on_page(1, 1)
        return [Document(text=text, metadata=meta)]

    def _walk(self, node, blocks: list[str], depth: int) -> None:
        from bs4 import NavigableString, Tag

        for child in node.children:
            if isinstance(child, NavigableString):
                if type(child).__name__ == "NavigableString" and child.strip():
                    blocks.append(" ".join(child.split()))
                continue
            if not isinstance(child, Tag):
                continue
            name = child.name.lower()
            marker = " ".join([child.get("id") or "", *(child.get("class") or [])])
            if name in _SKIP or (marker.strip() and _TOC.search(marker)):
                continue
            if re.fullmatch(r"h[1-6]", name):
                blocks.append("#" * int(name[1]) + " " + _text(child))
            elif name in ("ol", "ul"):
                self._list(child, blocks, depth)
            elif name == "pre":
                blocks.append("```\n" + child.get_text().strip("\n") + "\n```")
            elif name == "table":
                rows = []
                for tr in child.find_all("tr"):
                    cells = [_text(td) for td in tr.find_all(["td", "th"])]
                    rows.append("| " + " | ".join(cells) + " |")
                blocks.append("\n".join(rows))
            elif name in _BLOCK_CONTAINERS or child.find(["p", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "ul", "table", "pre"]):
                self._walk(child, blocks, depth)
            else:
                text = _text(child)
                if text:
                    blocks.append(text)

    def _list(self, lst, blocks: list[str], depth: int) -> None:
        ordered = lst.name.lower() == "ol"
        try:
            number = int(lst.get("start", "1"))
        except ValueError:
            number = 1
        for li in lst.find_all("li", recursive=False):
            nested = li.find_all(["ol", "ul"], recursive=False)
            for sub in nested:
                sub.extract()
            label = f"{number}." if ordered else "-"
            blocks.append("  " * depth + f"{label} {_text(li)}")
            number += 1
            for sub in nested:
                self._list(sub, blocks, depth + 1)
