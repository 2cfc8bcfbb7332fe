"""Weekly payouts to marketplace sellers."""

import logging
from decimal import Decimal

logger = logging.getLogger(__name__)


def pay_out(seller_id: str, balance: Decimal, currency: str, transfer) -> bool:
    if balance <= 0:
        logger.debug("seller %s has nothing to pay out", seller_id)
        return False
    reference = transfer(seller_id, balance, currency)
    logger.info("paid %s %s to seller %s (ref %s)", balance, currency, seller_id, reference)
    return True


def pay_out_all(balances: dict[str, Decimal], currency: str, transfer) -> int:
    paid = 0
    for seller_id, balance in balances.items():
        if pay_out(seller_id, balance, currency, transfer):
            paid += 1
    logger.info("%d of %d sellers paid", paid, len(balances))
    return paid
