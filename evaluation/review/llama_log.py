"""How much of each prompt a local llama-cpp-python server took from its prefix cache.

The server (`../shared/tools/local-llm.sh`) reports no cached tokens in its API usage, but its log
says, per request, `Llama.generate: N prefix-match hit, remaining M prompt tokens to eval`. A
`LogWindow` remembers where the log ended and reads what was added since: run one review between
`start()` and `read()` (requests one at a time) and the figures are that review's.

    window = LogWindow(Path("~/.cache/dualrag-llm/server.log").expanduser())
    window.start(); ...review...; cached, evaluated = window.read()
"""

from __future__ import annotations

import re
from pathlib import Path

_HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")


class LogWindow:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.offset = 0

    def start(self) -> None:
        self.offset = self.path.stat().st_size if self.path is not None and self.path.is_file() else 0

    def read(self) -> tuple[int, int]:
        """(prompt tokens taken from the cache, prompt tokens evaluated) since `start()`."""
        if self.path is None or not self.path.is_file():
            return 0, 0
        with self.path.open("rb") as fh:
            fh.seek(self.offset)
            text = fh.read().decode("utf-8", "replace")
        cached = evaluated = 0
        for m in _HIT.finditer(text):
            cached += int(m.group(1))
            evaluated += int(m.group(2))
        return cached, evaluated
