package cn.logistics.freight;

import java.math.BigDecimal;
import java.util.List;

public class FreightQuoter {

    private static final double VOLUMETRIC_DIVISOR = 6.0;

    private final BigDecimal baseFee;

    public FreightQuoter(BigDecimal baseFee) {
        this.baseFee = baseFee;
    }

    public BigDecimal quote(List<Parcel> parcels, int zone) {
        BigDecimal total = baseFee;
        for (Parcel parcel : parcels) {
            double actualWeight = parcel.getWeightKg();
            // 计费重量取实重与体积重的较大值
            double chargeableWeight = Math.max(actualWeight, parcel.getVolumeLitres() / VOLUMETRIC_DIVISOR);
            total = total.add(rateFor(zone, chargeableWeight));
        }
        return total;
    }

    private BigDecimal rateFor(int zone, double weightKg) {
        BigDecimal zoneRate = BigDecimal.valueOf(weightKg).multiply(BigDecimal.valueOf(zone));
        return zoneRate.max(BigDecimal.ONE);
    }
}
