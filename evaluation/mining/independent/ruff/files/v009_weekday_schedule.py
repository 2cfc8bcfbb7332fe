"""Build the weekly opening-hours table."""

OPENING = {
    "mon": ("08:00", "18:00"),
    "tue": ("08:00", "18:00"),
    "wed": ("08:00", "20:00"),
    "thu": ("08:00", "18:00"),
    "fri": ("08:00", "16:00"),
}


def opening_table(closed_days: set[str]) -> list[str]:
    weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    rows = []
    for day in list(weekdays):
        if day in closed_days or day not in OPENING:
            rows.append(f"{day}: closed")
            continue
        start, end = OPENING[day]
        rows.append(f"{day}: {start}-{end}")
    return rows


if __name__ == "__main__":
    print("\n".join(opening_table({"wed"})))
