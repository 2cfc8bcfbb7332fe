package com.shop.inventory;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

public class StockLedger {

    private final Map<SkuKey, Integer> onHand = new HashMap<>();

    public void receive(String sku, String warehouse, int quantity) {
        onHand.merge(new SkuKey(sku, warehouse), quantity, Integer::sum);
    }

    public int onHand(String sku, String warehouse) {
        return onHand.getOrDefault(new SkuKey(sku, warehouse), 0);
    }

    static final class SkuKey {
        private final String sku;
        private final String warehouse;

        SkuKey(String sku, String warehouse) {
            this.sku = sku;
            this.warehouse = warehouse;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof SkuKey)) {
                return false;
            }
            SkuKey that = (SkuKey) other;
            return Objects.equals(sku, that.sku) && Objects.equals(warehouse, that.warehouse);
        }
    }
}
