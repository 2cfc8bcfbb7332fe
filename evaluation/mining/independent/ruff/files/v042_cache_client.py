"""Client for the shared cache with a local fallback."""

import pickle
import socket

_local: dict[str, bytes] = {}


def get(sock_path: str, key: str) -> object | None:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(0.2)
            client.connect(sock_path)
            client.sendall(b"GET " + key.encode() + b"\n")
            data = client.recv(65536)
    except (TimeoutError,):
        data = _local.get(key)
    except OSError:
        return None
    return pickle.loads(data) if data else None


def put_local(key: str, value: object) -> None:
    _local[key] = pickle.dumps(value)
