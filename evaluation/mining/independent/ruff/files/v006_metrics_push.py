"""Push request metrics to the collector."""

import json
import time
import urllib.request

COLLECTOR = "https://metrics.internal.example/v1/push"


def snapshot(counters: dict[str, int]) -> bytes:
    return json.dumps({"ts": int(time.time()), "counters": counters}).encode()


def push(counters: dict[str, int]) -> None:
    request = urllib.request.Request(COLLECTOR, data=snapshot(counters), method="POST")
    request.add_header("Content-Type", "application/json")
    try:
        urllib.request.urlopen(request, timeout=2).close()
    except Exception:
        pass


def run_forever(read_counters, interval: float = 15.0) -> None:
    while True:
        push(read_counters())
        time.sleep(interval)
