"""Measurement units and their conversions."""

from typing import ClassVar


class UnitRegistry:
    BASE_FACTORS: ClassVar[dict[str, float]] = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0}

    def __init__(self) -> None:
        self.custom: dict[str, float] = {}

    def define(self, unit: str, metres: float) -> None:
        self.custom[unit] = metres

    def factor(self, unit: str) -> float:
        if unit in self.custom:
            return self.custom[unit]
        return self.BASE_FACTORS[unit]

    def convert(self, value: float, source: str, target: str) -> float:
        return value * self.factor(source) / self.factor(target)


if __name__ == "__main__":
    units = UnitRegistry()
    units.define("mile", 1609.344)
    print(units.convert(3, "mile", "km"))
