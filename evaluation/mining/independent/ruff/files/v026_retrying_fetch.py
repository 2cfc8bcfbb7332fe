"""Fetch a URL with retries on transient errors."""

import socket
import time
import urllib.error
import urllib.request

def fetch(url: str, attempts: int = 3, pause: float = 1.0) -> bytes:
    for attempt in range(1, attempts + 1):
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except [socket.timeout, ConnectionResetError]:
            if attempt == attempts:
                raise
            time.sleep(pause * attempt)
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{url} answered {error.code}") from error
    raise RuntimeError("unreachable")


if __name__ == "__main__":
    print(len(fetch("https://example.org")))
