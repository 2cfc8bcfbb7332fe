package cn.wms.inventory.alert;

import java.util.ArrayList;
import java.util.List;

public class ReorderPlanner {

    private static final int SAFETY_STOCK = 20;
    private static final int NO_SUPPLIER = -1;

    private final List<String> reorders = new ArrayList<>();

    public void plan(String sku, int available, int supplierId) {
        // 低于或等于安全库存，且有供应商时补货
        if (available <= SAFETY_STOCK && supplierId != NO_SUPPLIER) {
            reorders.add(sku);
        }
    }

    public boolean withinCapacity(int incoming, int capacity) {
        return incoming < capacity;
    }

    public int pending() {
        return reorders.size();
    }
}
