package com.paydesk.webhook;

import java.util.Map;

public class WebhookRouter {

    private final PaymentEvents payments;
    private final RefundEvents refunds;

    public WebhookRouter(PaymentEvents payments, RefundEvents refunds) {
        this.payments = payments;
        this.refunds = refunds;
    }

    public int handle(Map<String, String> payload) {
        String eventType = payload.get("type");
        // 第三方回调，字段可能缺失
        switch (eventType) {
            case "payment.succeeded":
                payments.succeeded(payload.get("id"));
                return 200;
            case "refund.created":
                refunds.created(payload.get("id"));
                return 200;
            default:
                return 202;
        }
    }
}
