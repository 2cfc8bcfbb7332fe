"""Validate coupon codes at checkout."""

from datetime import date


class CouponError(ValueError):
    pass


def validate(code: str, expires: date, min_basket: float, basket: float, today: date) -> None:
    if not code.isalnum():
        raise CouponError(f"malformed coupon {code!r}")
    if today > expires:
        raise CouponError(f"coupon {code} expired on {expires:%d %b %Y}")
    if basket < min_basket:
        raise CouponError(f"coupon {code} needs a basket of at least {min_basket:.2f}")


def apply(code: str, expires: date, percent: int, basket: float, today: date) -> float:
    validate(code, expires, 20.0, basket, today)
    return round(basket * (100 - percent) / 100, 2)


if __name__ == "__main__":
    print(apply("SPRING24", date(2024, 6, 30), 15, 80.0, date(2024, 5, 1)))
