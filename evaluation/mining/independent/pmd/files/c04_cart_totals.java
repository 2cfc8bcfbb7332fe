package com.shop.cart;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

public class CartTotals {

    private static final Map<String, BigDecimal> SURCHARGES;

    static {
        SURCHARGES = Map.of("ISLANDS", new BigDecimal("4.90"));
    }

    public BigDecimal total(List<CartLine> lines, String region) {
        BigDecimal sum = BigDecimal.ZERO;
        for (CartLine line : lines) {
            sum = sum.add(line.price().multiply(BigDecimal.valueOf(line.quantity())));
        }
        {
            BigDecimal surcharge = SURCHARGES.getOrDefault(region, BigDecimal.ZERO);
            sum = sum.add(surcharge);
        }
        if (sum.signum() < 0) {
            sum = BigDecimal.ZERO;
        }
        return sum;
    }

    public record CartLine(BigDecimal price, int quantity) {
    }
}
