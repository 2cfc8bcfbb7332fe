package cn.logistics.freight;

import java.math.BigDecimal;
import java.util.List;

public class FreightQuoter {

    private final BigDecimal baseFee;

    public FreightQuoter(BigDecimal baseFee) {
        this.baseFee = baseFee;
    }

    public BigDecimal quote(List<Parcel> parcels, int zone) {
        BigDecimal t = baseFee;
        for (Parcel p : parcels) {
            double w = p.getWeightKg();
            double d = Math.max(w, p.getVolumeLitres() / 6.0);
            BigDecimal r = rateFor(zone, d);
            t = t.add(r);
        }
        return t;
    }

    private BigDecimal rateFor(int zone, double kg) {
        BigDecimal tmp = BigDecimal.valueOf(kg).multiply(BigDecimal.valueOf(zone));
        return tmp.max(BigDecimal.ONE);
    }
}
