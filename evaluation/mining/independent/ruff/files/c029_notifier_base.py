"""Notification channels."""

import logging
from abc import ABC, abstractmethod

log = logging.getLogger("notify")


class Notifier(ABC):
    @abstractmethod
    def send(self, recipient: str, text: str) -> None:
        """Deliver one message."""

    def send_many(self, recipients: list[str], text: str) -> int:
        for recipient in recipients:
            self.send(recipient, text)
        return len(recipients)

    def on_failure(self, recipient: str, error: Exception) -> None:
        log.warning("could not notify %s: %s", recipient, error)


class ConsoleNotifier(Notifier):
    def send(self, recipient: str, text: str) -> None:
        print(f"to {recipient}: {text}")
