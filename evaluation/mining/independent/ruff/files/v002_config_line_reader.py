"""Read key=value configuration files with comments."""

from pathlib import Path


def read_config(path: Path) -> dict[str, str]:
    settings: dict[str, str] = {}
    with path.open(encoding="utf-8") as handle:
        for raw in handle:
            raw = raw.split("#", 1)[0].strip()
            if not raw:
                continue
            key, sep, value = raw.partition("=")
            if not sep:
                raise ValueError(f"{path}: expected key=value, got {raw!r}")
            settings[key.strip()] = value.strip()
    return settings


def merged(paths: list[Path]) -> dict[str, str]:
    result: dict[str, str] = {}
    for path in paths:
        if path.exists():
            result.update(read_config(path))
    return result
