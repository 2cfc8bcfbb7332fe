package cn.logistics.scale;

import java.math.BigDecimal;
import java.util.List;

public class WeightChecker {

    private static final double TOLERANCE_KG = 1e-3;

    private final double tareKg;

    public WeightChecker(double tareKg) {
        this.tareKg = tareKg;
    }

    public boolean matchesDeclared(Parcel parcel, double measuredKg) {
        double net = measuredKg - tareKg;
        return Math.abs(net - parcel.getDeclaredKg()) < TOLERANCE_KG;
    }

    public boolean sameFee(BigDecimal charged, BigDecimal quoted) {
        return charged.compareTo(quoted) == 0;
    }

    public int countMismatches(List<Parcel> parcels, List<Double> readings) {
        int mismatches = 0;
        for (int index = 0; index < parcels.size(); index++) {
            double difference = parcels.get(index).getDeclaredKg() - (readings.get(index) - tareKg);
            if (Math.abs(difference) >= TOLERANCE_KG) {
                mismatches++;
            }
        }
        return mismatches;
    }
}
