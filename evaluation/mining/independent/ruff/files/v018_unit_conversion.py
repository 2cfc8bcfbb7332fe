"""Unit conversion helpers for the recipe app."""

GRAMS_PER_OUNCE = 28.3495
ML_PER_CUP = 236.588


def ounces_to_grams(ounces: float) -> float:
    f"""Convert ounces to grams ({GRAMS_PER_OUNCE} g per ounce)."""
    return round(ounces * GRAMS_PER_OUNCE, 1)


def cups_to_millilitres(cups: float) -> float:
    """Convert US cups to millilitres."""
    return round(cups * ML_PER_CUP)


def scale(amounts: dict[str, float], factor: float) -> dict[str, float]:
    """Scale every ingredient amount by the same factor."""
    return {name: round(value * factor, 2) for name, value in amounts.items()}


if __name__ == "__main__":
    print(ounces_to_grams(8), cups_to_millilitres(1.5))
