package com.acme.money;

import java.math.BigDecimal;
import java.util.List;

public final class Money {

    private final BigDecimal amount;

    public Money(BigDecimal amount) {
        this.amount = amount;
    }

    public Money plus(Money other) {
        return new Money(amount.add(other.amount));
    }

    public static Money plus(Money left, Money right) {
        return left.plus(right);
    }

    public static Money sum(List<Money> values) {
        Money total = new Money(BigDecimal.ZERO);
        for (Money value : values) {
            total = total.plus(value);
        }
        return total;
    }

    public BigDecimal amount() {
        return amount;
    }
}
