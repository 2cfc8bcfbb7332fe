package com.travel.booking;

import java.util.Map;

public class SeatAllocator {

    private final Map<String, Integer> reservedRows;

    public SeatAllocator(Map<String, Integer> reservedRows) {
        this.reservedRows = reservedRows;
    }

    public int rowFor(String passenger, boolean hasReservation) {
        int row = hasReservation ? reservedRows.get(passenger) : null;
        return row;
    }

    public String describe(String passenger, boolean upgraded) {
        return "row " + Math.max(1, upgraded ? null : reservedRows.getOrDefault(passenger, 30));
    }
}
