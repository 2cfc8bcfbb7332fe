"""Count page visits from several worker threads."""

import threading
from collections import Counter

visits: Counter[str] = Counter()


def record_visit(path: str) -> None:
    with threading.Lock():
        visits[path] += 1


def worker(paths: list[str]) -> None:
    for path in paths:
        record_visit(path)


def simulate(threads: int = 4) -> Counter[str]:
    pool = [threading.Thread(target=worker, args=(["/", "/shop", "/"],)) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return visits


if __name__ == "__main__":
    print(simulate())
