"""Income tax band helpers."""

BANDS = ((12_570, 0.0), (50_270, 0.2), (125_140, 0.4))
TOP_RATE = 0.45


def rate_for(income: float) -> float:
    """The marginal tax rate that applies to the given income."""
    for limit, rate in BANDS:
        if income <= limit:
            return rate
    return TOP_RATE


def describe(income: float) -> str:
    """A one-line summary of the band an income falls in."""
    return f"an income of {income:,.0f} is taxed at {rate_for(income):.0%} at the margin"


if __name__ == "__main__":
    for income in (10_000, 40_000, 200_000):
        print(describe(income))
