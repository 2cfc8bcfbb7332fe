package com.shopcart.cart;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

public class CartCleaner {

    private final PromotionService promotions;

    public CartCleaner(PromotionService promotions) {
        this.promotions = promotions;
    }

    public int clean(Cart cart, Instant now) {
        int removed = 0;
        List<CartItem> gifts = new ArrayList<>();
        Iterator<CartItem> it = cart.getItems().iterator();
        while (it.hasNext()) {
            CartItem item = it.next();
            if (item.getExpiresAt().isBefore(now)) {
                it.remove();
                removed++;
            } else if (promotions.hasGift(item.getSku())) {
                gifts.add(promotions.giftFor(item.getSku()));
            }
        }
        // 遍历结束后再追加赠品
        cart.getItems().addAll(gifts);
        cart.touch(now);
        return removed;
    }
}
