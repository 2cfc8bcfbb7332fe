package com.shop.coupons;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class CouponValidatorTest {

    private final CouponValidator validator = new CouponValidator(LocalDate.of(2024, 3, 1));

    @Test
    void rejectsExpiredCoupon() {
        Coupon expired = Coupon.builder()
                .code("SPRING10")
                .percent(10)
                .validUntil(LocalDate.of(2024, 2, 28))
                .build();
        assertThrows(IllegalStateException.class, () -> validator.validate(expired));
    }

    @Test
    void rejectsNegativePercent() {
        Coupon.Builder builder = Coupon.builder().code("BAD");
        assertThrows(IllegalArgumentException.class, () -> builder.percent(-5));
    }
}
