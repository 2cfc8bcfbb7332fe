"""Find the newest invoice per customer."""

from datetime import date


def newest_by_customer(invoices: list[dict]) -> dict[str, dict]:
    newest: dict[str, dict] = {}
    for invoice in sorted(invoices, key=lambda item: item["issued"], reverse=True):
        newest.setdefault(invoice["customer"], invoice)
    return newest


def any_newest(invoices: list[dict]) -> dict | None:
    newest = newest_by_customer(invoices)
    if not newest:
        return None
    return list(newest.values())[0]


if __name__ == "__main__":
    data = [
        {"customer": "acme", "issued": date(2024, 1, 3), "total": 120},
        {"customer": "acme", "issued": date(2024, 2, 1), "total": 80},
        {"customer": "globex", "issued": date(2024, 1, 20), "total": 50},
    ]
    print(any_newest(data))
