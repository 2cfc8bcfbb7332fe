"""Invitation codes for the private beta."""

import secrets
import string

CODE_ALPHABET = string.ascii_uppercase + string.digits


def invite_code(length: int = 12) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def invite_batch(count: int) -> set[str]:
    codes: set[str] = set()
    while len(codes) < count:
        codes.add(invite_code())
    return codes


def grouped(code: str, size: int = 4) -> str:
    return "-".join(code[i:i + size] for i in range(0, len(code), size))


if __name__ == "__main__":
    for code in sorted(invite_batch(3)):
        print(grouped(code))
