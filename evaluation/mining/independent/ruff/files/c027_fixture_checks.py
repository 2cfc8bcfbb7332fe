"""Assertions used by the data fixture loader in tests."""

import json
from pathlib import Path


def load_fixture(path: Path) -> list[dict]:
    records = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(records, list), f"{path.name}: expected a list, got {type(records).__name__}"
    for index, record in enumerate(records):
        assert "id" in record, f"{path.name}[{index}] has no id"
    return records


def unique_ids(records: list[dict]) -> set[str]:
    ids = [record["id"] for record in records]
    duplicates = {value for value in ids if ids.count(value) > 1}
    assert not duplicates, "duplicate ids: " + ", ".join(sorted(duplicates))
    return set(ids)


if __name__ == "__main__":
    import sys

    print(len(unique_ids(load_fixture(Path(sys.argv[1])))))
