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

    // 计算账单：参数名与成员变量同名
    public BigDecimal bill(String region, List<Integer> usageMinutes) {
        if (usageMinutes.isEmpty()) {
            BigDecimal extra = BigDecimal.ZERO;
            return monthlyFee.add(extra);
        }
        BigDecimal total = monthlyFee;
        for (Integer minutes : usageMinutes) {
            BigDecimal extra = BigDecimal.valueOf(minutes).multiply(new BigDecimal("0.05"));
            total = total.add(extra);
        }
        return region.startsWith("INT") ? total.multiply(new BigDecimal("1.2")) : total;
    }

    public static class StudentPlan extends TariffPlan {
        private BigDecimal monthlyFee;

        public StudentPlan(BigDecimal fee, String homeRegion) {
            super(fee, homeRegion);
            this.monthlyFee = fee.divide(new BigDecimal("2"));
        }
    }
}
