"""Find the user's preferred locale."""

import os

FALLBACK = "en_US.UTF-8"
VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def preferred_locale() -> str:
    for name in VARIABLES:
        value = os.getenv(name)
        if value:
            return value
    return FALLBACK


def language() -> str:
    return preferred_locale().split(".", 1)[0].split("_", 1)[0]


def uses_utf8() -> bool:
    return preferred_locale().lower().replace("-", "").endswith("utf8")


if __name__ == "__main__":
    print(preferred_locale(), language(), uses_utf8())
