"""Synchronise stock levels from the supplier feed."""

import logging

from inventory.feed import SupplierFeed
from inventory.store import StockStore

log = logging.getLogger("inventory.sync")


def sync_supplier(feed: SupplierFeed, store: StockStore) -> int:
    updated = 0
    for item in feed.items():
        current = store.level(item.sku)
        if current == item.quantity:
            continue
        store.set_level(item.sku, item.quantity)
        updated += 1
    log.info("updated %d stock levels from %s", updated)
    return updated


def sync_all(feeds: list[SupplierFeed], store: StockStore) -> int:
    total = 0
    for feed in feeds:
        try:
            total += sync_supplier(feed, store)
        except ConnectionError:
            log.warning("supplier %s unreachable", feed.name)
    return total
