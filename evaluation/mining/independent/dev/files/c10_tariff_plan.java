package com.telco.billing;

import java.math.BigDecimal;
import java.util.List;

public class TariffPlan {

    protected BigDecimal monthlyFee;
    protected String region;

    public TariffPlan(BigDecimal baseFee, String homeRegion) {
        this.monthlyFee = baseFee;
        this.region = homeRegion;
    }

    public void setRegion(String region) {
        this.region = region;
    }

    public BigDecimal bill(String billingRegion, List<Integer> usageMinutes) {
        if (usageMinutes.isEmpty()) {
            return monthlyFee;
        }
        BigDecimal total = monthlyFee;
        for (Integer minutes : usageMinutes) {
            BigDecimal usageCharge = BigDecimal.valueOf(minutes).multiply(new BigDecimal("0.05"));
            total = total.add(usageCharge);
        }
        return billingRegion.startsWith("INT") ? total.multiply(new BigDecimal("1.2")) : total;
    }

    public static class StudentPlan extends TariffPlan {
        private final BigDecimal studentDiscount;

        public StudentPlan(BigDecimal fee, String homeRegion) {
            super(fee, homeRegion);
            this.studentDiscount = fee.divide(new BigDecimal("2"));
        }
    }
}
