"""Rolling latency percentiles for the health endpoint."""

from collections import deque
from statistics import quantiles


class RollingLatency:
    def __init__(self, window: int = 500, seed: list[float] | None = None) -> None:
        self.samples = deque(seed or (), maxlen=window) if seed else deque(maxlen=window)

    def observe(self, millis: float) -> None:
        self.samples.append(millis)

    def p95(self) -> float | None:
        if len(self.samples) < 20:
            return None
        return quantiles(self.samples, n=20)[-1]


if __name__ == "__main__":
    latency = RollingLatency(window=100, seed=[12.0, 15.5])
    for value in range(40):
        latency.observe(10 + value % 7)
    print(latency.p95())
