"""Document the settings class for the admin page."""

import inspect


class Settings:
    site_name: str = "Shop"
    items_per_page: int = 24
    maintenance: bool = False


def settings_table(cls: type) -> list[tuple[str, str, object]]:
    rows = []
    for name, kind in inspect.get_annotations(cls).items():
        rows.append((name, getattr(kind, "__name__", str(kind)), getattr(cls, name, None)))
    return rows


def markdown(cls: type) -> str:
    lines = ["| name | type | default |", "| --- | --- | --- |"]
    for name, kind, default in settings_table(cls):
        lines.append(f"| {name} | {kind} | {default!r} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(Settings))
