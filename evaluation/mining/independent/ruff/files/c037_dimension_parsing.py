"""Parse paper sizes like '210x297mm'."""

import re

_SIZE = re.compile(r"^(\d+)x(\d+)(mm|in)$")


def parse(size: str) -> tuple[float, float]:
    match = _SIZE.match(size.strip().lower())
    if not match:
        raise ValueError(f"bad size {size!r}")
    width, height, unit = match.groups()
    factor = 25.4 if unit == "in" else 1.0
    return float(width) * factor, float(height) * factor


def is_portrait(size: str) -> bool:
    width, height = parse(size)
    return height > width


def height_only(size: str) -> float:
    _width, height = parse(size)
    return height


if __name__ == "__main__":
    print(parse("210x297mm"), is_portrait("11x8in"), height_only("148x210mm"))
