"""Summaries of sales rows grouped by region."""

from itertools import groupby
from operator import itemgetter


def summaries(rows: list[dict]) -> list[dict]:
    ordered = sorted(rows, key=itemgetter("region"))
    result = []
    for region, group in groupby(ordered, key=itemgetter("region")):
        total = sum(row["amount"] for row in group)
        orders = len([row for row in group])
        result.append({"region": region, "total": total, "orders": orders})
    return result


if __name__ == "__main__":
    data = [
        {"region": "north", "amount": 120},
        {"region": "south", "amount": 80},
        {"region": "north", "amount": 40},
    ]
    for line in summaries(data):
        print(line)
