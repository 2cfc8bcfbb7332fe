"""Shopping basket model."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass
class BasketLine:
    sku: str
    quantity: int
    unit_price: Decimal

    @property
    def total(self) -> Decimal:
        return self.unit_price * self.quantity


@dataclass
class Basket:
    customer_id: str
    lines: list[BasketLine] = []
    voucher: str | None = None

    def add(self, line: BasketLine) -> None:
        self.lines.append(line)

    def total(self) -> Decimal:
        return sum((line.total for line in self.lines), Decimal("0"))
