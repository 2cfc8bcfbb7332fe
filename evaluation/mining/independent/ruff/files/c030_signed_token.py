"""Signed tokens for the download links."""

import hashlib
import hmac


class SignedToken:
    def __init__(self, key: bytes, subject: str, expires: int) -> None:
        self.key = key
        self.subject = subject
        self.expires = expires

    def message(self) -> bytes:
        return f"{self.subject}:{self.expires}".encode("utf-8")

    def signature(self) -> bytes:
        return hmac.new(self.key, self.message(), hashlib.sha256).digest()

    def __bytes__(self) -> bytes:
        return self.message() + b"." + self.signature()

    def __str__(self) -> str:
        return bytes(self).hex()


if __name__ == "__main__":
    print(str(SignedToken(b"k", "report.pdf", 1_700_000_000))[:32])
