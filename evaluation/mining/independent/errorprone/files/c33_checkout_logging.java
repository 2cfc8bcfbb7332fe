package com.shop.checkout;

import com.google.common.flogger.FluentLogger;
import java.util.List;

public class CheckoutService {

    private static final FluentLogger logger = FluentLogger.forEnclosingClass();

    private final PaymentGateway gateway;

    public CheckoutService(PaymentGateway gateway) {
        this.gateway = gateway;
    }

    public Receipt checkout(Cart cart, List<String> coupons) {
        logger.atInfo().log("checking out cart %s", cart);
        Receipt receipt = gateway.charge(cart.total(), cart.currency());
        logger.atFine().log("applied coupons %s to receipt %s", coupons, receipt.getId());
        return receipt;
    }

    public String receiptLine(Receipt receipt) {
        return receipt.getId() + ": " + receipt.toString();
    }
}
