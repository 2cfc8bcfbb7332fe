package com.crm.loyalty;

import java.util.HashMap;
import java.util.Map;

public class LoyaltyAccount {

    private final Map<String, Integer> balances = new HashMap<>();
    private Boolean frozen = new Boolean(false);
    private Long lastTouched;

    public void earn(String member, int points) {
        Integer current = balances.get(member);
        balances.put(member, new Integer(current == null ? points : current + points));
        lastTouched = new Long(System.currentTimeMillis());
    }

    public int balance(String member) {
        return balances.getOrDefault(member, 0);
    }

    public void freeze() {
        frozen = Boolean.TRUE;
    }

    public boolean isFrozen() {
        return frozen;
    }

    public Long lastTouched() {
        return lastTouched;
    }
}
