package com.shopcart.cart;

import java.time.Instant;
import java.util.List;

public class CartCleaner {

    private final PromotionService promotions;

    public CartCleaner(PromotionService promotions) {
        this.promotions = promotions;
    }

    public int clean(Cart cart, Instant now) {
        int removed = 0;
        try {
            for (CartItem item : cart.getItems()) {
                if (item.getExpiresAt().isBefore(now)) {
                    cart.getItems().remove(item);
                    removed++;
                } else if (promotions.hasGift(item.getSku())) {
                    // 满赠：把赠品直接放进购物车
                    cart.getItems().add(promotions.giftFor(item.getSku()));
                }
            }
        } finally {
            cart.touch(now);
        }
        return removed;
    }
}
