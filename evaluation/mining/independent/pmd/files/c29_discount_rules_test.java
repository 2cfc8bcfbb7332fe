package com.shop.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class DiscountRulesTest {

    private DiscountRules rules;

    @BeforeEach
    void setUp() {
        rules = new DiscountRules();
    }

    @Test
    void tenPercentOverHundred() {
        assertApplied("100.00", "90.00");
    }

    @Test
    void noDiscountBelowThreshold() {
        assertApplied("50.00", "50.00");
    }

    @Test
    @Disabled("negative amounts are validated upstream since 2.3")
    void negativeAmountRejected() {
        assertApplied("-1", "0");
    }

    private void assertApplied(String amount, String expected) {
        assertEquals(new BigDecimal(expected), rules.apply(new BigDecimal(amount)));
    }
}
