package com.travel.booking;

import java.util.Map;

public class SeatAllocator {

    private static final int ECONOMY_FIRST_ROW = 30;

    private final Map<String, Integer> reservedRows;

    public SeatAllocator(Map<String, Integer> reservedRows) {
        this.reservedRows = reservedRows;
    }

    public Integer rowFor(String passenger, boolean hasReservation) {
        Integer row = hasReservation ? reservedRows.get(passenger) : null;
        return row;
    }

    public int rowOrDefault(String passenger, boolean hasReservation) {
        return hasReservation ? reservedRows.getOrDefault(passenger, ECONOMY_FIRST_ROW) : ECONOMY_FIRST_ROW;
    }
}
