"""Send SMS through the gateway with fallbacks."""

import logging

log = logging.getLogger("sms")


class QuotaExceeded(Exception):
    pass


def send(gateway, backup, number: str, text: str) -> bool:
    try:
        gateway.send(number, text)
        return True
    except QuotaExceeded:
        log.warning("quota exceeded, using backup gateway")
    except (ConnectionError, TimeoutError) as error:
        log.warning("primary gateway failed: %s", error)
    try:
        backup.send(number, text)
        return True
    except ConnectionError:
        log.error("backup gateway failed too for %s", number)
        return False
