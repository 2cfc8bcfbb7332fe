package com.example.wallet.model;

public final class PaymentCard {

    private static final String REDACTED = "██";

    private final String holder;
    private final String number;
    private final String cvc;

    public PaymentCard(String holder, String number, String cvc) {
        this.holder = holder;
        this.number = number;
        this.cvc = cvc;
    }

    public String last4() {
        return number.substring(number.length() - 4);
    }

    public boolean matchesCvc(String candidate) {
        return cvc.equals(candidate);
    }

    @Override
    public String toString() {
        return "PaymentCard(holder=" + holder + ", number=" + REDACTED + ", cvc=" + REDACTED + ")";
    }
}
