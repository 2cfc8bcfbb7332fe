"""Serialise report values for export."""

from datetime import date
from decimal import Decimal
from functools import singledispatchmethod


@singledispatchmethod
def export_value(value) -> str:
    return str(value)


@export_value.register
def _(value: date) -> str:
    return value.isoformat()


@export_value.register
def _(value: Decimal) -> str:
    return f"{value:.2f}"


def export_row(row: dict) -> dict[str, str]:
    return {key: export_value(value) for key, value in row.items()}


if __name__ == "__main__":
    print(export_row({"day": date(2024, 3, 1), "amount": Decimal("12.5"), "note": "ok"}))
