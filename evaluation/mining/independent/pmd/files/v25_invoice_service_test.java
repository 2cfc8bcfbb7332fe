package com.acme.billing;

import static org.junit.Assert.assertEquals;

import java.math.BigDecimal;

import org.junit.Before;
import org.junit.jupiter.api.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class InvoiceServiceTest {

    private InvoiceService service;

    @Before
    public void setUp() {
        service = new InvoiceService(new BigDecimal("0.20"));
    }

    @Test
    public void addsVatToNetAmount() {
        assertEquals(new BigDecimal("120.00"), service.gross(new BigDecimal("100.00")));
    }

    @Test
    public void zeroStaysZero() {
        assertEquals(new BigDecimal("0.00"), service.gross(BigDecimal.ZERO));
    }
}
