package com.crm.loyalty;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

public class LoyaltyAccount {

    private final Map<String, Integer> balances = new HashMap<>();
    private Boolean frozen = Boolean.FALSE;
    private Long lastTouched;

    public void earn(String member, int points) {
        balances.merge(member, Integer.valueOf(points), Integer::sum);
        lastTouched = System.currentTimeMillis();
    }

    public BigDecimal cashValue(String member) {
        return new BigDecimal(balances.getOrDefault(member, 0)).movePointLeft(2);
    }

    public void freeze() {
        frozen = Boolean.valueOf(true);
    }

    public boolean isFrozen() {
        return frozen;
    }
}
