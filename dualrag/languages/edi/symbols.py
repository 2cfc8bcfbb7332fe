"""EDI documents for the code index: flows and their steps, data transforms and their mappings,
the partner registry (`partners.xml`), read with `dualrag.edi` (no DTD, no entities, no fetch).
Links are written in the documents: `dt:PATH`, `flow:PATH`, `partner:ID`, `channel:ID`."""

from __future__ import annotations

import posixpath

from dualrag.source.encoding import decode
from dualrag.units import MAX_SYMBOL_BODY, CodeSymbol


def edi_symbols(path: str, text: str, data: bytes) -> list[CodeSymbol]:
    return _edi_units(path, data)


def _uniq(items: list[str]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))



def _edi_units(path: str, data: bytes) -> list[CodeSymbol]:
    from dualrag.edi.model import kind_of
    from dualrag.edi.reader import read_document

    kind = kind_of(path)
    if kind is None:
        return []
    doc = read_document(path, kind, data)
    root = doc.root
    if root is None:
        return []
    text_lines = decode(data)[0].split("\n")
    folder = posixpath.dirname(path)

    def rel(target: str) -> str:
        return posixpath.normpath(posixpath.join(folder, target)) if target else ""

    def span(node) -> tuple[int, int]:
        # the element's last line: the line before the next sibling / the parent's end
        end = _end_line(node, len(text_lines))
        return node.line, end

    def body(start: int, end: int) -> str:
        return "\n".join(text_lines[start - 1 : end])[:MAX_SYMBOL_BODY]

    units: list[CodeSymbol] = []
    doc_id = root.get("id") or posixpath.splitext(posixpath.basename(path))[0]

    seen: set[str] = set()

    def add(kind: str, name: str, qualified: str, node, refs: list[str], owner: str = "") -> None:
        start, end = span(node)
        head = " ".join(f'{k}="{v}"' for k, v in node.attrs.items())
        sid = f"{path}#{qualified}"
        if sid in seen:  # a duplicate id (a validator finding, EDI-FMT-004) must not stop the whole index
            sid = f"{sid}@{start}"
        seen.add(sid)
        units.append(CodeSymbol(
            symbol_id=sid, kind=kind, language="edi", name=name, qualified_name=qualified,
            owner=owner, path=path, start_line=start, end_line=end, signature=f"<{node.tag} {head}>"[:300],
            body=body(start, end), refs=_uniq(refs), call_names=[r.split(":", 1)[1] for r in refs if ":" in r],
            repository="",
        ))

    if kind == "flow":
        refs = [f"partner:{root.get('partner')}"] if root.get("partner") else []
        steps = []
        for node in root.iter():
            if node is root:
                continue
            r = []
            if node.get("transform"):
                r.append(f"dt:{rel(node.get('transform'))}")
            if node.tag == "route" and node.get("flow"):
                r.append(f"flow:{rel(node.get('flow'))}")
            if node.get("channel"):
                r.append(f"channel:{node.get('channel')}")
            if node.tag in ("receive", "send", "deduplicate", "validate", "translate", "route") and node.get("id"):
                steps.append((node, r))
            refs += [x for x in r if not x.startswith("channel:")]
        add("edi-flow", doc_id, doc_id, root, refs)
        for node, r in steps:
            add("edi-step", node.get("id"), f"{doc_id}/{node.get('id')}", node, r, owner=doc_id)
    elif kind == "dt":
        refs = [f"partner:{root.get('partner')}"] if root.get("partner") else []
        add("edi-transform", doc_id, doc_id, root, refs)
        for node in root.iter("map"):
            to = node.get("to")
            if to:
                r = [f"field:{node.get('from')}"] if node.get("from") else []
                add("edi-mapping", to, f"{doc_id}/map[to={to}]@{node.line}", node, r, owner=doc_id)
    elif kind == "partners":
        for node in root.iter("partner"):
            if node.get("id"):
                add("edi-partner", node.get("id"), f"partner:{node.get('id')}", node, [])
    return units


def _end_line(node, last: int) -> int:
    parent = node.parent
    if parent is None:
        return last
    siblings = parent.children
    i = siblings.index(node)
    if i + 1 < len(siblings):
        return max(node.line, siblings[i + 1].line - 1)
    return max(node.line, _end_line(parent, last) - 1 if parent.parent is not None else last - 1)
