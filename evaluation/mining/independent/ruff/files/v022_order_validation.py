"""Validate incoming orders before they are queued."""

MAX_ITEMS = 100


class OrderRejected(Exception):
    pass


def validate(order: dict) -> None:
    items = order.get("items", [])
    if not items:
        raise OrderRejected("order has no items")
    if len(items) > MAX_ITEMS:
        raise
    for item in items:
        if item.get("quantity", 0) <= 0:
            raise OrderRejected(f"bad quantity for {item.get('sku')}")


def accept(order: dict, queue: list) -> bool:
    try:
        validate(order)
    except OrderRejected:
        return False
    queue.append(order)
    return True
