"""Safe reading of EDI configuration XML.

- No DTD at all: a `<!DOCTYPE` or `<!ENTITY` is refused before parsing (XXE, billion laughs).
- the stdlib expat parser with every DTD feature refused by handlers (the defusedxml approach) as
  a second wall: no entity is expanded, nothing is ever fetched.
- A size cap (default 16 MB): larger files get one finding and are not parsed; so do files
  nesting deeper than `max_depth` or holding more than `max_elements` elements (checked while
  parsing, so the tree is never built past a cap).
- The declared encoding is checked against the bytes.
- Fragments (hunks of a modified file seen only through a diff) are read with a tolerant tag
  scanner: only what the hunk shows, no document-level conclusions.
"""

from __future__ import annotations

import codecs
import re
from xml.parsers import expat

from dualrag.edi.model import Document, Issue, Node

MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 256  # real EDI configurations nest about ten levels
MAX_ELEMENTS = 200_000
_DTD = re.compile(rb"<!(?:DOCTYPE|ENTITY)\b", re.IGNORECASE)
_DECL = re.compile(rb"^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"'][^>]*\?>")
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _line_at(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def read_document(path: str, kind: str, data: bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
                  max_elements: int = MAX_ELEMENTS) -> Document:
    doc = Document(path=path, kind=kind, root=None)
    if len(data) > max_bytes:
        doc.issues.append(Issue("EDI-FMT-007", 1, f"file is {len(data) / 1e6:.1f} MB, above the "
                                f"{max_bytes / 1e6:.0f} MB limit for one configuration file; not validated"))
        return doc
    m = _DTD.search(data)
    if m:
        doc.issues.append(Issue("EDI-FMT-002", _line_at(data, m.start()),
                                "a DTD or entity declaration is not allowed in EDI configuration files "
                                "(entity expansion and external entities); the file was not parsed"))
        return doc
    text, enc_issue = _decode(data)
    if enc_issue:
        doc.issues.append(enc_issue)
    if text is None:
        return doc
    # The declaration was checked above; parse the decoded text with the declaration blanked.
    text = re.sub(r"^\ufeff?\s*<\?xml[^>]*\?>", lambda mm: re.sub(r"[^\n]", " ", mm.group(0)), text, count=1)
    try:
        doc.root = _parse(text.encode("utf-8"), max_depth, max_elements)
    except expat.ExpatError as exc:
        doc.issues.append(Issue("EDI-FMT-001", exc.lineno or 1, f"not well-formed XML: {str(exc).split(': line')[0]}"))
    except _Refused as exc:
        doc.issues.append(Issue("EDI-FMT-002", exc.line, str(exc)))
    except _TooLarge as exc:
        doc.issues.append(Issue("EDI-FMT-007", exc.line, str(exc)))
    return doc


class _Refused(Exception):
    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"{what} is not allowed in EDI configuration files; the file was not parsed")
        self.line = line


class _TooLarge(Exception):
    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"{what}; the file was not validated")
        self.line = line


def _parse(data: bytes, max_depth: int = MAX_DEPTH, max_elements: int = MAX_ELEMENTS) -> Node | None:
    """Expat with every DTD feature refused (what defusedxml does): no DOCTYPE, no entity
    declaration, no external entity, no parameter entities. One pass builds the Node tree."""
    p = expat.ParserCreate("utf-8")
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    top: list[Node] = []
    stack: list[Node] = []

    def refuse(what: str):
        def handler(*_args):
            raise _Refused(p.CurrentLineNumber, what)
        return handler

    count = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal count
        count += 1
        if len(stack) >= max_depth:
            raise _TooLarge(p.CurrentLineNumber, f"elements nest deeper than {max_depth} levels (limits.max_xml_depth)")
        if count > max_elements:
            raise _TooLarge(p.CurrentLineNumber, f"more than {max_elements:,} elements (limits.max_xml_elements)")
        parent = stack[-1] if stack else None
        node = Node(tag, attrs, p.CurrentLineNumber, parent)
        if parent is not None:
            parent.children.append(node)
        else:
            top.append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    p.StartDoctypeDeclHandler = refuse("a DTD")
    p.EntityDeclHandler = refuse("an entity declaration")
    p.UnparsedEntityDeclHandler = refuse("an entity declaration")
    p.ExternalEntityRefHandler = refuse("an external entity")
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.Parse(data, True)
    return top[0] if top else None


def _decode(data: bytes) -> tuple[str | None, Issue | None]:
    """Text of the file, and an EDI-FMT-006 issue when the declared encoding does not match."""
    m = _DECL.match(data)
    declared = m.group(1).decode("ascii").lower() if m else None
    if data.startswith(_UTF16_BOMS):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError:
            return None, Issue("EDI-FMT-006", 1, "the file starts with a UTF-16 byte-order mark but is not UTF-16")
    if declared is not None:
        try:
            codec = codecs.lookup(declared).name
        except LookupError:
            return _fallback(data), Issue("EDI-FMT-006", 1, f"unknown declared encoding '{declared}'")
    else:
        codec = "utf-8"
    if codec.startswith("utf-16") or codec.startswith("utf-32"):
        return _fallback(data), Issue("EDI-FMT-006", 1, f"declared encoding '{declared}' but the bytes are "
                                      "not UTF-16/32 (no byte-order mark, ASCII-compatible content)")
    try:
        utf8 = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        utf8 = None
        bad_at = exc.start
    if codec == "utf-8":
        if utf8 is None:
            return _fallback(data), Issue("EDI-FMT-006", _line_at(data, bad_at),
                                          f"declared {'UTF-8' if declared else 'no encoding (UTF-8)'} but the "
                                          "bytes are not valid UTF-8")
        return utf8, None
    # A single-byte declaration (ISO-8859-x, windows-125x, ASCII…) over UTF-8 multi-byte text
    # is the classic mojibake: the partner receives "Ã©" for "é".
    if utf8 is not None and any(b >= 0x80 for b in data):
        first = next(i for i, b in enumerate(data) if b >= 0x80)
        return utf8, Issue("EDI-FMT-006", _line_at(data, first),
                           f"declared encoding '{declared}' but the text is UTF-8: non-ASCII characters "
                           "would be read as different characters")
    try:
        return data.decode(codec), None
    except UnicodeDecodeError as exc:
        return _fallback(data), Issue("EDI-FMT-006", _line_at(data, exc.start),
                                      f"bytes are not valid '{declared}'")


def _fallback(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# --- fragments ------------------------------------------------------------------------------

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TAG = re.compile(
    r"<(/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*)\s*(/?)>")
_ATTR = re.compile(r"([\w:.-]+)\s*=\s*(?:\"([^\"<]*)\"|'([^'<]*)')")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);")


def _unescape(value: str) -> str:
    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name.startswith("#x"):
            return chr(int(name[2:], 16))
        if name.startswith("#"):
            return chr(int(name[1:]))
        return {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}[name]
    try:
        return _ENTITY.sub(one, value)
    except (ValueError, OverflowError):
        return value


def scan_fragment(lines: list[tuple[int, str]]) -> tuple[list[Node], list[Issue]]:
    """Tolerant reading of consecutive new-file lines (number, text): complete tags only, nesting
    rebuilt where the fragment shows both ends; nodes before the first visible parent are tops."""
    if not lines:
        return [], []
    issues: list[Issue] = []
    text = "\n".join(t for _, t in lines)
    numbers = [n for n, _ in lines]
    text = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    import bisect

    def line_of(offset: int) -> int:
        return numbers[bisect.bisect_right(starts, offset) - 1]

    for m in re.finditer(r"<!(?:DOCTYPE|ENTITY)\b", text, re.IGNORECASE):
        issues.append(Issue("EDI-FMT-002", line_of(m.start()), "a DTD or entity declaration is not allowed in "
                            "EDI configuration files (entity expansion and external entities)"))
    tops: list[Node] = []
    stack: list[Node] = []
    for m in _TAG.finditer(text):
        closing, tag, attr_text, empty = m.group(1), m.group(2), m.group(3), m.group(4)
        if closing:
            # Pop to the matching open element if the fragment shows it.
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth].tag == tag:
                    del stack[depth:]
                    break
            continue
        attrs = {a.group(1): _unescape(a.group(2) if a.group(2) is not None else a.group(3))
                 for a in _ATTR.finditer(attr_text)}
        node = Node(tag, attrs, line_of(m.start()), stack[-1] if stack else None)
        (stack[-1].children if stack else tops).append(node)
        if not empty:
            stack.append(node)
    return tops, issues
