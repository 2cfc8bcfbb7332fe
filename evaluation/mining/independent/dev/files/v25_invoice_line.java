package com.acme.billing.model;

import java.math.BigDecimal;
import java.util.logging.Logger;

public class InvoiceLine {

    private static final Logger LOGGER = Logger.getLogger(InvoiceLine.class.getName());

    private String sku;
    private BigDecimal amount;
    private BigDecimal discount;

    public String getSku() {
        return sku;
    }

    public void setSku(String sku) {
        this.sku = sku;
    }

    public BigDecimal getAmount() {
        if (discount != null && discount.signum() > 0) {
            return amount.subtract(discount);
        }
        return amount;
    }

    public void setAmount(BigDecimal value) {
        if (value.signum() < 0) {
            LOGGER.warning("negative amount for " + sku);
            value = BigDecimal.ZERO;
        }
        this.amount = value;
    }

    public BigDecimal getDiscount() {
        return discount;
    }

    public void setDiscount(BigDecimal discount) {
        this.discount = discount;
    }
}
