package cn.wms.warehouse;

import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.stream.Collectors;

public class WarehouseLookup {

    private static final BinaryOperator<Warehouse> LARGER =
            (first, second) -> first.getCapacity() >= second.getCapacity() ? first : second;

    private final Map<String, Warehouse> byCity;
    private final Map<String, Warehouse> byCode;

    public WarehouseLookup(List<Warehouse> warehouses) {
        this.byCity = warehouses.stream()
                .filter(Warehouse::isOpen)
                .collect(Collectors.toMap(Warehouse::getCity, Function.identity(), LARGER));
        this.byCode = warehouses.stream()
                .collect(Collectors.toMap(w -> w.getCode().toUpperCase(), w -> w, (first, second) -> first));
    }

    public Warehouse nearest(String city) {
        return byCity.get(city);
    }
}
