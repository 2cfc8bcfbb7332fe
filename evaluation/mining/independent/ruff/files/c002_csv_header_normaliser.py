"""Normalise CSV header names before import."""

import csv
import re

_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalise_headers(headers: list[str]) -> list[str]:
    names = []
    for header in headers:
        name = _NON_WORD.sub("_", header.strip().lower()).strip("_")
        if not name:
            name = f"column_{len(names) + 1}"
        names.append(name)
    return names


def read_rows(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = normalise_headers(next(reader))
        return [dict(zip(header, row, strict=False)) for row in reader]


if __name__ == "__main__":
    print(normalise_headers([" Order ID", "Ship-To City", ""]))
