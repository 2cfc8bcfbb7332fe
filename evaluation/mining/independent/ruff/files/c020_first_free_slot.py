"""Pick the first free appointment slot."""

from datetime import datetime, timedelta


def slots(start: datetime, end: datetime, minutes: int = 30):
    current = start
    while current + timedelta(minutes=minutes) <= end:
        yield current
        current += timedelta(minutes=minutes)


def first_free(start: datetime, end: datetime, booked: set[datetime]) -> datetime | None:
    free = (slot for slot in slots(start, end) if slot not in booked)
    return next(iter(free), None)


def all_free(start: datetime, end: datetime, booked: set[datetime]) -> list[datetime]:
    return [slot for slot in slots(start, end) if slot not in booked]


if __name__ == "__main__":
    day = datetime(2024, 4, 2, 9)
    print(first_free(day, day + timedelta(hours=3), {day}))
