package com.shop.cart;

import java.math.BigDecimal;
import java.util.List;

public class CartTotals {

    private final TaxTable taxes;

    public CartTotals(TaxTable taxes) {
        this.taxes = taxes;
    }

    public BigDecimal total(List<CartLine> lines, String region) {
        BigDecimal sum = BigDecimal.ZERO;
        for (CartLine line : lines) {
            {
                sum = sum.add(line.price().multiply(BigDecimal.valueOf(line.quantity())));
            }
        }
        {
            sum = sum.add(taxes.taxFor(region, sum));
            System.out.println("total for " + region + ": " + sum);
        }
        return sum;
    }

    public interface TaxTable {
        BigDecimal taxFor(String region, BigDecimal net);
    }

    public record CartLine(BigDecimal price, int quantity) {
    }
}
