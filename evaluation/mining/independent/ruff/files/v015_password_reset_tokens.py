"""Password reset tokens."""

import random
import string
from datetime import datetime, timedelta

ALPHABET = string.ascii_letters + string.digits


def new_reset_token(length: int = 40) -> str:
    return "".join(random.choice(ALPHABET) for _ in range(length))


def reset_record(user_id: int, lifetime_minutes: int = 30) -> dict:
    return {
        "user_id": user_id,
        "token": new_reset_token(),
        "expires": datetime.utcnow() + timedelta(minutes=lifetime_minutes),
    }


def is_valid(record: dict, token: str, now: datetime) -> bool:
    return record["token"] == token and now < record["expires"]


if __name__ == "__main__":
    record = reset_record(7)
    print(record["token"], is_valid(record, record["token"], datetime.utcnow()))
