package com.acme.money;

import java.math.BigDecimal;
import java.util.Objects;

public final class MoneyAmount {

    private final BigDecimal value;
    private final String currency;

    public MoneyAmount(BigDecimal value, String currency) {
        this.value = value.stripTrailingZeros();
        this.currency = currency;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MoneyAmount)) {
            return false;
        }
        MoneyAmount other = (MoneyAmount) o;
        return value.equals(other.value) && currency.equals(other.currency);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, currency);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + value + " " + currency + "]";
    }
}
