"""Split access-log entries into sessions per visitor."""

from itertools import groupby


def sessions(entries: list[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    ordered = sorted(entries)
    result = {}
    for visitor, group in groupby(ordered, key=lambda entry: entry[0]):
        hits = list(group)
        first = hits[0][1]
        last = hits[-1][1]
        result[visitor] = (len(hits), last - first)
    return result


if __name__ == "__main__":
    log = [("10.0.0.1", 100), ("10.0.0.2", 105), ("10.0.0.1", 160), ("10.0.0.1", 190)]
    for visitor, (hits, seconds) in sessions(log).items():
        print(f"{visitor}: {hits} hits over {seconds}s")
