"""Parse prices typed by shop staff."""

from decimal import Decimal, InvalidOperation


def parse_price(text: str) -> Decimal | None:
    cleaned = text.strip().replace(",", ".").removesuffix("EUR").strip()
    try:
        value = Decimal(cleaned)
    except (InvalidOperation, ValueError, TypeError):
        return None
    if value < 0:
        return None
    return value.quantize(Decimal("0.01"))


def parse_all(texts: list[str]) -> list[Decimal]:
    prices = []
    for text in texts:
        price = parse_price(text)
        if price is not None:
            prices.append(price)
    return prices


if __name__ == "__main__":
    print(parse_all(["12,50", "abc", "3 EUR", "-1"]))
