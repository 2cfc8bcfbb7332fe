"""Decide whether a monitoring alert pages someone."""

from dataclasses import dataclass


@dataclass
class Alert:
    severity: str
    service: str
    acknowledged: bool
    business_hours: bool


CRITICAL_SERVICES = {"payments", "checkout"}


def pages(alert: Alert) -> bool:
    critical = alert.severity == "critical" or (
        alert.severity == "high" and alert.service in CRITICAL_SERVICES
    )
    return critical and (not alert.acknowledged)


def emails(alert: Alert) -> bool:
    return (alert.severity == "low" and alert.business_hours) or alert.acknowledged


if __name__ == "__main__":
    print(pages(Alert("high", "payments", False, True)))
