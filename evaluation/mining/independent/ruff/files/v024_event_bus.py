"""A small in-process event bus."""

from collections.abc import Callable


class EventBus:
    subscribers = {}

    def __init__(self, name: str) -> None:
        self.name = name

    def subscribe(self, topic: str, handler: Callable[[dict], None]) -> None:
        self.subscribers.setdefault(topic, []).append(handler)

    def publish(self, topic: str, event: dict) -> int:
        handlers = self.subscribers.get(topic, [])
        for handler in handlers:
            handler(event)
        return len(handlers)


if __name__ == "__main__":
    orders = EventBus("orders")
    audit = EventBus("audit")
    orders.subscribe("created", print)
    print(audit.publish("created", {"id": 1}))
