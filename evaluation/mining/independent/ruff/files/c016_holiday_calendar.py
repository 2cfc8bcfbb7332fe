"""Public holidays by region."""

from datetime import date
from functools import lru_cache

FIXED = {"01-01": "New Year", "05-01": "Labour Day", "12-25": "Christmas"}


@lru_cache(maxsize=32)
def holidays(year: int, region: str) -> dict[date, str]:
    days = {date(year, int(key[:2]), int(key[3:])): name for key, name in FIXED.items()}
    if region == "BY":
        days[date(year, 8, 15)] = "Assumption Day"
    return days


class HolidayCalendar:
    def __init__(self, region: str) -> None:
        self.region = region

    def is_holiday(self, day: date) -> bool:
        return day in holidays(day.year, self.region)

    def name(self, day: date) -> str | None:
        return holidays(day.year, self.region).get(day)
