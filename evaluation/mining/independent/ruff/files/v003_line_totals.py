"""Compute invoice line totals."""

from decimal import Decimal


def line_total(unit_price: Decimal, quantity: int) -> Decimal:
    return (unit_price * quantity).quantize(Decimal("0.01"))


def invoice_totals(unit_prices: list[Decimal], quantities: list[int]) -> list[Decimal]:
    return list(map(line_total, unit_prices, quantities))


def invoice_sum(unit_prices: list[Decimal], quantities: list[int]) -> Decimal:
    return sum(invoice_totals(unit_prices, quantities), Decimal("0"))


if __name__ == "__main__":
    prices = [Decimal("9.99"), Decimal("4.50"), Decimal("120.00")]
    amounts = [3, 10]
    print(invoice_sum(prices, amounts))
    print(invoice_totals(prices, amounts))
    for total in invoice_totals(prices, amounts):
        print(f"{total:>10}")
