"""MyBatis mapper statements for the code index: one symbol per `<select|insert|update|delete|sql|
resultMap>` of a mapper, named `namespace.id` (owner: the namespace, name: the id), so it meets the
Java (or Kotlin) mapper interface method of the same name: the interface's qualified name is the
namespace, and the method's owner and name are the statement's.

Inside a statement, `<include refid="x"/>` links to `sql:NAMESPACE.x` and `resultMap="a"` (or a
resultMap's `extends`) to `result-map:NAMESPACE.a`; a dotted reference names another namespace.
"""

from __future__ import annotations

import re

from dualrag.units import MAX_SYMBOL_BODY, CodeSymbol

_INCLUDE = re.compile(r"<include\s+[^>]*\brefid\s*=\s*[\"']([^\"']+)")
_RESULT_MAP = re.compile(r"\b(?:resultMap|extends)\s*=\s*[\"']([^\"']+)")


def mapper_symbols(path: str, text: str) -> list[CodeSymbol]:
    from dualrag.languages.mybatis import mapper_members

    members, _, _ = mapper_members(text)
    found = re.search(r"<mapper\s+[^>]*namespace\s*=\s*[\"']([^\"']+)", text)
    namespace = found.group(1).strip() if found else ""
    lines = text.split("\n")
    out: list[CodeSymbol] = []
    seen: set[str] = set()
    for m in members:
        owner, _, name = m.name.rpartition(".")
        body = "\n".join(lines[m.start - 1:m.end])
        refs = [f"sql:{_qualify(r, namespace)}" for r in _INCLUDE.findall(body)]
        head = body.split(">", 1)[0] if m.kind == "resultMap" else body
        refs += [f"result-map:{_qualify(r.strip(), namespace)}" for rm in _RESULT_MAP.findall(head)
                 for r in rm.split(",") if r.strip()]
        sid = f"{path}#{m.name}"
        if sid in seen:
            sid = f"{sid}@{m.start}"
        seen.add(sid)
        out.append(CodeSymbol(
            symbol_id=sid, kind=m.kind, language="mybatis", name=name, qualified_name=m.name, owner=owner,
            path=path, start_line=m.start, end_line=m.end, signature=m.signature, body=body[:MAX_SYMBOL_BODY],
            refs=list(dict.fromkeys(refs)), call_names=list(dict.fromkeys(r.split(":", 1)[1].rsplit(".", 1)[-1]
                                                                         for r in refs)),
            repository="",
        ))
    return out


def _qualify(ref: str, namespace: str) -> str:
    return ref if "." in ref or not namespace else f"{namespace}.{ref}"
