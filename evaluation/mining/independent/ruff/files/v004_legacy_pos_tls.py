"""Client for the legacy point-of-sale terminals (pyOpenSSL)."""

import socket

from OpenSSL import SSL

TERMINAL_PORT = 9443


def terminal_context() -> SSL.Context:
    context = SSL.Context(method=SSL.TLSv1_METHOD)
    context.load_verify_locations("/etc/pos/terminal-ca.pem")
    context.set_verify(SSL.VERIFY_PEER, lambda *args: args[-1])
    return context


def send_batch(host: str, payload: bytes) -> bytes:
    raw = socket.create_connection((host, TERMINAL_PORT), timeout=10)
    tls = SSL.Connection(terminal_context(), raw)
    tls.set_connect_state()
    tls.set_tlsext_host_name(host.encode())
    try:
        tls.sendall(payload)
        return tls.recv(4096)
    finally:
        tls.close()


if __name__ == "__main__":
    print(send_batch("pos-17.store.local", b"PING\n"))
