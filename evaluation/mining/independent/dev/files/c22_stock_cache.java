package cn.wms.inventory.cache;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

public class StockCache {

    private final Map<String, Integer> available = new ConcurrentHashMap<>();
    private final Map<String, Integer> reserved = new ConcurrentHashMap<>();

    public void refresh(String sku, int quantity) {
        available.put(sku, quantity);
    }

    public Optional<Integer> availableOf(String sku) {
        return Optional.ofNullable(available.get(sku));
    }

    public int sellable(String sku) {
        int held = reserved.getOrDefault(sku, 0);
        int onHand = available.getOrDefault(sku, 0);
        return onHand - held;
    }
}
