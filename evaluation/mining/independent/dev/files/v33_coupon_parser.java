package com.mall.coupon;

import java.util.List;

public class CouponCodeParser {

    private final CouponRepository coupons;

    public CouponCodeParser(CouponRepository coupons) {
        this.coupons = coupons;
    }

    public String campaignOf(String code) {
        try {
            return code.split("-")[1];
        } catch (ArrayIndexOutOfBoundsException e) {
            return "UNKNOWN";
        }
    }

    public int discountPercent(long couponId) {
        Coupon coupon = coupons.find(couponId);
        try {
            return coupon.getRule().getPercent();
        } catch (NullPointerException e) {
            // 券或规则不存在时不打折
            return 0;
        }
    }

    public String firstCode(List<String> codes) {
        try {
            return codes.get(0);
        } catch (IndexOutOfBoundsException e) {
            return null;
        }
    }
}
