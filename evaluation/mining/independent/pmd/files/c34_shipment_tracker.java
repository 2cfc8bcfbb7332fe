package com.logistics.tracking;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

public class ShipmentTracker {

    private final String trackingNumber;
    private final List<Checkpoint> checkpoints = new ArrayList<>();
    private Instant lastUpdate;

    public ShipmentTracker(String trackingNumber) {
        this.trackingNumber = trackingNumber;
    }

    public void checkpoint(String location) {
        lastUpdate = Instant.now();
        checkpoints.add(new Checkpoint(location, lastUpdate));
    }

    public boolean isStale(Instant now) {
        return lastUpdate == null || lastUpdate.plusSeconds(86_400).isBefore(now);
    }

    static final class Checkpoint {
        private final String location;
        private final Instant at;

        Checkpoint(String location, Instant at) {
            this.location = location;
            this.at = at;
        }
    }
}
