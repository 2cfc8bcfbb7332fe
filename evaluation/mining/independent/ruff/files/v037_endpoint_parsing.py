"""Group service endpoints by host."""

from collections import defaultdict


def hosts(endpoints: list[str]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for endpoint in endpoints:
        host, port = endpoint.rsplit(":", 1)
        counts[host.lower()] += 1
    return dict(counts)


def busiest(endpoints: list[str]) -> str | None:
    counts = hosts(endpoints)
    if not counts:
        return None
    return max(counts, key=counts.get)


if __name__ == "__main__":
    services = ["db-1:5432", "db-1:6432", "cache-2:6379", "DB-1:9187"]
    print(hosts(services))
    print(busiest(services))
