package com.shop.coupons;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class CouponValidatorTest {

    private final CouponValidator validator = new CouponValidator(LocalDate.of(2024, 3, 1));

    @Test
    void rejectsExpiredCoupon() {
        assertThrows(
                IllegalStateException.class,
                () -> validator.validate(
                        Coupon.builder()
                                .code("SPRING10")
                                .percent(10)
                                .validUntil(LocalDate.of(2024, 2, 28))
                                .build()));
    }

    @Test
    void rejectsNegativePercent() {
        assertThrows(IllegalArgumentException.class, () -> {
            Coupon coupon = Coupon.builder().code("BAD").percent(-5).build();
            validator.validate(coupon);
        });
    }
}
