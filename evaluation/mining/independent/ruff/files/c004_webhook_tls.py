"""Deliver webhooks over TLS."""

import http.client
import json
import ssl


def client_context() -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_default_certs()
    return context


def deliver(host: str, path: str, event: dict) -> int:
    connection = http.client.HTTPSConnection(host, context=client_context(), timeout=5)
    try:
        body = json.dumps(event).encode("utf-8")
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        return connection.getresponse().status
    finally:
        connection.close()


if __name__ == "__main__":
    print(deliver("hooks.example.com", "/events", {"type": "ping"}))
