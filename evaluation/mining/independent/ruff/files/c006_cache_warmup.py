"""Warm the product cache after a deploy."""

import logging

log = logging.getLogger("cache.warmup")


def warm(cache, catalogue, limit: int = 500) -> int:
    warmed = 0
    for product_id in catalogue.best_sellers(limit):
        try:
            cache.set(product_id, catalogue.render(product_id))
        except ConnectionError:
            log.exception("cache unreachable while warming %s", product_id)
            break
        except KeyError:
            log.warning("product %s vanished from the catalogue", product_id)
            continue
        warmed += 1
    log.info("warmed %d products", warmed)
    return warmed
