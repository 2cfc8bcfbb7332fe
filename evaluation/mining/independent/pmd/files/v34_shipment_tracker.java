package com.logistics.tracking;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

public class ShipmentTracker {

    private final String trackingNumber;

    public ShipmentTracker(String trackingNumber) {
        this.trackingNumber = trackingNumber;
    }

    private final List<String> checkpoints = new ArrayList<>();

    public void checkpoint(String location) {
        checkpoints.add(location);
        lastUpdate = Instant.now();
    }

    private Instant lastUpdate;

    public boolean isStale(Instant now) {
        return lastUpdate == null || lastUpdate.plusSeconds(86_400).isBefore(now);
    }

    public String summary() {
        return trackingNumber + " via " + String.join(" > ", checkpoints);
    }
}
