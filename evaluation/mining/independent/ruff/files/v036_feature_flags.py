"""Feature flags loaded once at start-up."""

import json
from pathlib import Path

FLAGS: dict[str, bool] = {}


def load_flags(path: Path) -> None:
    global FLAGS
    FLAGS = json.loads(path.read_text(encoding="utf-8"))


def is_enabled(name: str) -> bool:
    global FLAGS
    return bool(FLAGS.get(name, False))


def enabled_flags() -> list[str]:
    return sorted(name for name, on in FLAGS.items() if on)


if __name__ == "__main__":
    import sys

    load_flags(Path(sys.argv[1]))
    print(enabled_flags(), is_enabled("new-checkout"))
