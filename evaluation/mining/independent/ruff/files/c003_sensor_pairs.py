"""Pair temperature and humidity readings from two sensors."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    celsius: float
    humidity: float

    @property
    def dew_point(self) -> float:
        return self.celsius - (100 - self.humidity) / 5


def pair_readings(temperatures: list[float], humidities: list[float]) -> list[Reading]:
    return list(map(Reading, temperatures, humidities, strict=True))


def dew_points(temperatures: list[float], humidities: list[float]) -> list[float]:
    return [reading.dew_point for reading in pair_readings(temperatures, humidities)]


if __name__ == "__main__":
    print(dew_points([21.5, 19.0, 25.2], [40.0, 55.0, 70.0]))
    print(list(map(abs, [-1, 2, -3])))
