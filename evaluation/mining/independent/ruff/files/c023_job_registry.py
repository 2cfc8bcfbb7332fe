"""Registry of running background jobs."""

import threading
import time

_jobs: dict[str, float] = {}
_jobs_lock = threading.Lock()


def started(job_id: str) -> None:
    with _jobs_lock:
        _jobs[job_id] = time.monotonic()


def finished(job_id: str) -> float:
    with _jobs_lock:
        began = _jobs.pop(job_id)
    return time.monotonic() - began


def running() -> list[str]:
    with _jobs_lock:
        return sorted(_jobs)


if __name__ == "__main__":
    started("nightly")
    print(running(), round(finished("nightly"), 3))
