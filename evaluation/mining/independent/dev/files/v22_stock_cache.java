package cn.wms.inventory.cache;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

public class StockCache {

    private final Map<String, Integer> available = new ConcurrentHashMap<>();
    private final Map<String, Integer> reserved = new ConcurrentHashMap<>();

    public void refresh(String sku, int quantity) {
        available.put(sku, quantity);
    }

    public void reserve(String sku, int quantity) {
        reserved.merge(sku, quantity, Integer::sum);
    }

    /**
     * 可用库存；缓存未命中时由调用方回源。
     */
    public int availableOf(String sku) {
        return available.get(sku);
    }

    public int sellable(String sku) {
        int held = reserved.getOrDefault(sku, 0);
        return availableOf(sku) - held;
    }
}
