"""Parse numeric settings from a mapping."""

DEFAULTS = {"workers": 4, "timeout": 30, "retries": 3}


def int_setting(raw: dict[str, str], name: str) -> int:
    try:
        return int(raw[name])
    except ValueError or KeyError:
        return DEFAULTS[name]


def load(raw: dict[str, str]) -> dict[str, int]:
    settings = {name: int_setting(raw, name) for name in DEFAULTS}
    if settings["workers"] < 1:
        raise ValueError("workers must be at least 1")
    return settings


if __name__ == "__main__":
    print(load({"workers": "8", "timeout": "abc"}))
    print(load({"workers": "2", "timeout": "10", "retries": "5"}))
    print(DEFAULTS)
