"""Each worker's copy of an embedded store: copied at start, again only when the store changed."""

from __future__ import annotations

import os
import time

from dualrag.config import load_settings
from dualrag.service.replica import StoreReplica


def test_a_replica_follows_the_store_and_a_server_needs_none(tmp_path):
    store = tmp_path / "store"
    (store / "collection").mkdir(parents=True)
    (store / "collection" / "points.bin").write_bytes(b"v1")
    settings = load_settings(None, store=store)
    replica = StoreReplica(settings, root=tmp_path / "replicas")
    assert replica.needed and replica.refresh()
    copied = replica.settings(settings).store
    assert copied != store and (copied / "collection" / "points.bin").read_bytes() == b"v1"
    assert not replica.refresh()  # nothing changed: no copy
    (store / "collection" / "points.bin").write_bytes(b"v2 after an index run")
    later = time.time() + 5
    os.utime(store / "collection" / "points.bin", (later, later))
    assert replica.refresh() and (copied / "collection" / "points.bin").read_bytes() == b"v2 after an index run"
    replica.remove()
    assert not copied.exists()
    server = load_settings(None, store=store, qdrant={"url": "http://127.0.0.1:6333"})
    assert not StoreReplica(server).needed and StoreReplica(server).settings(server).store == store
