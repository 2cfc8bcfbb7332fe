package com.mall.promotion;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * 折扣计算，价格来自淘宝店铺同步。
 */
public class DiscountCalculator {

    private final BigDecimal maxRate;
    private final String taobaoShopId;

    public DiscountCalculator(BigDecimal maxRate, String taobaoShopId) {
        this.maxRate = maxRate;
        this.taobaoShopId = taobaoShopId;
    }

    public BigDecimal discountedPrice(BigDecimal price, BigDecimal rate) {
        BigDecimal applied = rate.min(maxRate);
        return price.multiply(applied).setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal total(List<BigDecimal> prices, BigDecimal rate, BigDecimal couponAmount) {
        BigDecimal sum = BigDecimal.ZERO;
        for (BigDecimal price : prices) {
            sum = sum.add(discountedPrice(price, rate));
        }
        return sum.subtract(couponAmount).max(BigDecimal.ZERO);
    }

    public String aliyunLogTopic() {
        return "promotion-" + taobaoShopId;
    }
}
