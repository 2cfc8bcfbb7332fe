package com.mall.coupon;

import java.util.List;

public class CouponCodeParser {

    private final CouponRepository coupons;

    public CouponCodeParser(CouponRepository coupons) {
        this.coupons = coupons;
    }

    public String campaignOf(String code) {
        String[] parts = code == null ? new String[0] : code.split("-");
        return parts.length > 1 ? parts[1] : "UNKNOWN";
    }

    public int discountPercent(long couponId) {
        Coupon coupon = coupons.find(couponId);
        if (coupon == null || coupon.getRule() == null) {
            return 0;
        }
        return coupon.getRule().getPercent();
    }

    public int batchNumber(String code) {
        try {
            return Integer.parseInt(code.substring(code.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            // 批次号格式无法预先校验
            return -1;
        }
    }

    public String firstCode(List<String> codes) {
        return codes.isEmpty() ? null : codes.get(0);
    }
}
