package cn.wms.inventory.alert;

import java.util.ArrayList;
import java.util.List;

public class LowStockAlerter {

    private static final int SAFETY_STOCK = 20;

    private final List<String> alerts = new ArrayList<>();

    public void scan(List<StockLevel> levels) {
        for (StockLevel level : levels) {
            // 库存不高于安全库存时告警
            if (!(level.getAvailable() > SAFETY_STOCK)) {
                alerts.add(level.getSku() + " low: " + level.getAvailable());
            }
        }
    }

    public boolean withinCapacity(int incoming, int capacity) {
        return !(incoming >= capacity);
    }

    public List<String> drain() {
        List<String> copy = new ArrayList<>(alerts);
        alerts.clear();
        return copy;
    }

    public static final class StockLevel {
        private final String sku;
        private final int available;

        public StockLevel(String sku, int available) {
            this.sku = sku;
            this.available = available;
        }

        public String getSku() {
            return sku;
        }

        public int getAvailable() {
            return available;
        }
    }
}
