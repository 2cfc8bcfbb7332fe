package com.example.wallet.model;

import slack.annotations.Redacted;

public final class PaymentCard {

    private final String holder;
    @Redacted
    private final String number;
    @Redacted
    private final String cvc;

    public PaymentCard(String holder, String number, String cvc) {
        this.holder = holder;
        this.number = number;
        this.cvc = cvc;
    }

    public String last4() {
        return number.substring(number.length() - 4);
    }

    @Override
    public String toString() {
        return "PaymentCard(holder=" + holder + ", number=" + number + ", cvc=" + cvc + ")";
    }
}
