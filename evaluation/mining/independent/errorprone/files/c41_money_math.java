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

    public static Money sum(Money left, Money right) {
        return left.plus(right);
    }

    public static Money total(List<Money> values) {
        return values.stream().reduce(new Money(BigDecimal.ZERO), Money::plus);
    }

    public BigDecimal amount() {
        return amount;
    }
}
