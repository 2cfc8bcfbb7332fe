package com.acme.billing.model;

import java.math.BigDecimal;

public class InvoiceLine {

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
        return amount;
    }

    public void setAmount(BigDecimal amount) {
        this.amount = amount;
    }

    public BigDecimal getDiscount() {
        return discount;
    }

    public void setDiscount(BigDecimal discount) {
        this.discount = discount;
    }

    /** 折后金额：业务计算放在独立方法里。 */
    public BigDecimal netAmount() {
        if (discount == null || discount.signum() <= 0) {
            return amount;
        }
        return amount.subtract(discount);
    }
}
