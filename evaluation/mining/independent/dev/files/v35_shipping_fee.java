package cn.logistics.fee;

public class ShippingFeeService {

    private static final int FREE_SHIPPING_CENTS = 0;

    private final FeeTable feeTable;

    public ShippingFeeService(FeeTable feeTable) {
        this.feeTable = feeTable;
    }

    public Integer feeFor(Order order) {
        // 会员包邮，否则按区域查表（查不到时为 null）
        Integer regionalFee = feeTable.lookup(order.getRegionCode());
        Integer fee = order.isMember() ? FREE_SHIPPING_CENTS : regionalFee;
        return fee;
    }

    public Integer surcharge(Order order, Integer remoteAreaFee) {
        return order.isRemote() ? remoteAreaFee : order.getWeightGrams() / 100;
    }
}
