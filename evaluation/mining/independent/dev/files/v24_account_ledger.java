package com.acme.ledger;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

public class AccountLedger {

    private final ReentrantReadWriteLock rwLock = new ReentrantReadWriteLock();
    private final Map<String, BigDecimal> balances = new HashMap<>(64);
    private final FraudChecker fraudChecker;

    public AccountLedger(FraudChecker fraudChecker) {
        this.fraudChecker = fraudChecker;
    }

    public void post(String account, BigDecimal delta) {
        try {
            fraudChecker.verify(account, delta);
            rwLock.writeLock().lock();
            balances.merge(account, delta, BigDecimal::add);
        } finally {
            rwLock.writeLock().unlock();
        }
    }

    public BigDecimal balance(String account) {
        rwLock.readLock().lock();
        try {
            return balances.getOrDefault(account, BigDecimal.ZERO);
        } finally {
            rwLock.readLock().unlock();
        }
    }
}
