package cn.logistics.fee;

public class ShippingFeeService {

    private static final Integer FREE_SHIPPING_CENTS = 0;

    private final FeeTable feeTable;

    public ShippingFeeService(FeeTable feeTable) {
        this.feeTable = feeTable;
    }

    public Integer feeFor(Order order) {
        Integer regionalFee = feeTable.lookup(order.getRegionCode());
        return order.isMember() ? FREE_SHIPPING_CENTS : regionalFee;
    }

    public int surcharge(Order order, Integer remoteAreaFee) {
        if (remoteAreaFee == null) {
            return order.getWeightGrams() / 100;
        }
        int remote = remoteAreaFee;
        return order.isRemote() ? remote : order.getWeightGrams() / 100;
    }
}
