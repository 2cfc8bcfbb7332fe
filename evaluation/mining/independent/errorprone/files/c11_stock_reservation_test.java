package com.shop.inventory;

import static org.junit.Assert.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import org.junit.Test;

public class StockReservationTest {

    private final StockRepository repository = mock(StockRepository.class);
    private final EventBus events = mock(EventBus.class);

    @Test
    public void reservesWhenEnoughStock() {
        when(repository.available("SKU-7")).thenReturn(5);
        StockReservation reservation = new StockReservation(repository, events);

        assertTrue(reservation.reserve("SKU-7", 3));

        verify(repository).decrement("SKU-7", 3);
        verify(events).publish(new Reserved("SKU-7", 3));
    }
}
