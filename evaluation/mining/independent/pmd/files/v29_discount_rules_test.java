package com.shop.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DiscountRulesTest {

    private DiscountRules rules;

    @BeforeEach
    void setUp() {
        rules = new DiscountRules();
    }

    @Test
    void tenPercentOverHundred() {
        assertEquals(new BigDecimal("90.00"), rules.apply(new BigDecimal("100.00")));
    }

    public void noDiscountBelowThreshold() {
        assertEquals(new BigDecimal("50.00"), rules.apply(new BigDecimal("50.00")));
    }

    void negativeAmountRejected() {
        assertEquals(BigDecimal.ZERO, rules.apply(new BigDecimal("-1")));
    }
}
