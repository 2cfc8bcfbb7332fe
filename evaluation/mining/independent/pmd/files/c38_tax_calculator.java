package com.acme.tax;

import java.math.BigDecimal;
import java.math.RoundingMode;

public class TaxCalculator {

    private final BigDecimal rate;
    private BigDecimal collected = BigDecimal.ZERO;

    public TaxCalculator(BigDecimal rate) {
        this.rate = rate;
    }

    public BigDecimal tax(BigDecimal net, BigDecimal exempt) {
        BigDecimal taxable = net.subtract(exempt).max(BigDecimal.ZERO);
        BigDecimal rounded = taxable.multiply(rate).setScale(2, RoundingMode.HALF_EVEN);
        collected = collected.add(rounded);
        return rounded;
    }

    public BigDecimal collectedSoFar() {
        return collected;
    }
}
