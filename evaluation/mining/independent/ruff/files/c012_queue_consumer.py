"""Consume invoice events from the message broker."""

import os

from broker import Connection


def connect() -> Connection:
    return Connection(
        host=os.environ.get("BROKER_HOST", "localhost"),
        port=int(os.environ.get("BROKER_PORT", "5672")),
        user=os.environ["BROKER_USER"],
        password=os.environ["BROKER_PASSWORD"],
        heartbeat=30,
    )


def consume(handler, queue: str = "invoices") -> None:
    connection = connect()
    try:
        for message in connection.subscribe(queue):
            handler(message.body)
            message.ack()
    finally:
        connection.close()


if __name__ == "__main__":
    consume(print)
