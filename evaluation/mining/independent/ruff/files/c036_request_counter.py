"""Count requests served by this worker."""

import time

SERVED = 0
STARTED = time.monotonic()


def served_one() -> int:
    global SERVED
    SERVED += 1
    return SERVED


def reset() -> None:
    global SERVED, STARTED
    SERVED = 0
    STARTED = time.monotonic()


def rate() -> float:
    elapsed = time.monotonic() - STARTED
    return SERVED / elapsed if elapsed > 0 else 0.0


if __name__ == "__main__":
    for _ in range(5):
        served_one()
    print(SERVED, round(rate(), 1) >= 0)
