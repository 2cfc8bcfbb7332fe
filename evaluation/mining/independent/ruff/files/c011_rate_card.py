"""Shipping rate card lookups."""

from decimal import Decimal

RATES = {"standard": Decimal("4.90"), "express": Decimal("12.50")}


def shipping_cost(
    service: str,
    weight_kg: float,
    surcharge: Decimal | None = None,
    free_above: Decimal | None = None,
    basket: Decimal = Decimal("0"),
) -> Decimal:
    if free_above is not None and basket >= free_above:
        return Decimal("0")
    cost = RATES[service] + Decimal(str(max(weight_kg - 2, 0))) * Decimal("0.80")
    if surcharge is not None:
        cost += surcharge
    return cost.quantize(Decimal("0.01"))


if __name__ == "__main__":
    print(shipping_cost("express", 3.5, free_above=Decimal("100"), basket=Decimal("42")))
