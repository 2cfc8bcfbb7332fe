package com.acme.tax;

import java.math.BigDecimal;
import java.math.RoundingMode;

public class TaxCalculator {

    private final BigDecimal rate;
    private BigDecimal taxable;
    private BigDecimal rounded;

    public TaxCalculator(BigDecimal rate) {
        this.rate = rate;
    }

    public BigDecimal tax(BigDecimal net, BigDecimal exempt) {
        taxable = net.subtract(exempt).max(BigDecimal.ZERO);
        rounded = taxable.multiply(rate).setScale(2, RoundingMode.HALF_EVEN);
        return rounded;
    }

    public BigDecimal gross(BigDecimal net) {
        taxable = net;
        return taxable.add(taxable.multiply(rate)).setScale(2, RoundingMode.HALF_EVEN);
    }
}
