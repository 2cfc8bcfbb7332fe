package cn.wms.warehouse;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

public class WarehouseLookup {

    private final Map<String, Warehouse> byCity;
    private final Map<String, Warehouse> byCode;

    public WarehouseLookup(List<Warehouse> warehouses) {
        // 同一城市可能有多个仓库
        this.byCity = warehouses.stream()
                .filter(Warehouse::isOpen)
                .collect(Collectors.toMap(Warehouse::getCity, Function.identity()));
        this.byCode = warehouses.stream()
                .collect(Collectors.toMap(w -> w.getCode().toUpperCase(), w -> w));
    }

    public Warehouse nearest(String city) {
        return byCity.get(city);
    }

    public Warehouse byCode(String code) {
        return byCode.get(code.toUpperCase());
    }
}
