"""Colour helpers for the theme editor."""


def hex_to_rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    red, green, blue = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return red, green, blue


def luminance(colour: str) -> float:
    red, green, blue = hex_to_rgb(colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def readable_text(background: str) -> str:
    return "#000000" if luminance(background) > 140 else "#ffffff"


def swap(first: str, second: str) -> tuple[str, str]:
    first, second = second, first
    return first, second


if __name__ == "__main__":
    print(hex_to_rgb("#3366cc"), readable_text("#3366cc"), swap("a", "b"))
