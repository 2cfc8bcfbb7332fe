"""Spring Boot configuration keys for the code index: one symbol per key (`config-key`) and per
YAML mapping that holds keys (`config-section`), named by its full dotted path as written
(`spring.datasource.url`). Each carries `config-key:K` and `config-under:P` for every enclosing
prefix, with keys in Spring's relaxed form (`dualrag.parsing.symbol_model.config_key`: `mail-host`,
`mailHost` and `MAIL_HOST` are one key), which is what `@Value("${...}")` and
`@ConfigurationProperties(prefix=...)` in Java and Kotlin are linked by."""

from __future__ import annotations

import posixpath

from dualrag.parsing.symbol_model import config_key
from dualrag.units import MAX_SYMBOL_BODY, CodeSymbol

MAX_SECTION_LINES = 30


def config_symbols(path: str, text: str) -> list[CodeSymbol]:
    from dualrag.languages.spring import properties_members, yaml_members

    yaml = posixpath.splitext(path)[1].lower() in (".yml", ".yaml")
    members, _, _ = (yaml_members if yaml else properties_members)(text)
    lines = text.split("\n")
    out: list[CodeSymbol] = []
    seen: set[str] = set()
    for m in members:
        key = m.name
        canon = config_key(key)
        parts = canon.split(".")
        refs = [f"config-key:{canon}"] + [f"config-under:{'.'.join(parts[:i])}" for i in range(1, len(parts))]
        section = m.kind == "section"
        end = min(m.end, m.start + MAX_SECTION_LINES - 1) if section else m.end
        body = "\n".join(lines[m.start - 1:end]) + ("\n# …" if section and end < m.end else "")
        sid = f"{path}#{key}"
        if sid in seen:  # a key repeated in another YAML document (profiles) of the same file
            sid = f"{sid}@{m.start}"
        seen.add(sid)
        owner, _, name = key.rpartition(".")
        out.append(CodeSymbol(
            symbol_id=sid, kind="config-section" if section else "config-key", language="spring", name=name,
            qualified_name=key, owner=owner, path=path, start_line=m.start, end_line=m.end,
            signature=m.signature, body=body[:MAX_SYMBOL_BODY], refs=refs, repository="",
        ))
    return out
