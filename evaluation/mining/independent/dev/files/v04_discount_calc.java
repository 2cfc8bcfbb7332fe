package com.mall.promotion;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

public class ZheKouCalculator {

    private final BigDecimal maxRate;

    public ZheKouCalculator(BigDecimal maxRate) {
        this.maxRate = maxRate;
    }

    // 计算折后价格
    public BigDecimal jiSuanJiaGe(BigDecimal price, BigDecimal rate) {
        BigDecimal applied = rate.min(maxRate);
        return price.multiply(applied).setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal total(List<BigDecimal> prices, BigDecimal rate, BigDecimal youHuiQuan) {
        BigDecimal sum = BigDecimal.ZERO;
        for (BigDecimal price : prices) {
            sum = sum.add(jiSuanJiaGe(price, rate));
        }
        return sum.subtract(youHuiQuan).max(BigDecimal.ZERO);
    }
}
