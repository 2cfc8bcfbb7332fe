package cn.logistics.scale;

import java.util.List;

public class WeightChecker {

    private final double tareKg;

    public WeightChecker(double tareKg) {
        this.tareKg = tareKg;
    }

    public boolean matchesDeclared(Parcel parcel, double measuredKg) {
        double net = measuredKg - tareKg;
        return net == parcel.getDeclaredKg();
    }

    public int countMismatches(List<Parcel> parcels, List<Double> readings) {
        int mismatches = 0;
        for (int index = 0; index < parcels.size(); index++) {
            Double declared = parcels.get(index).getDeclaredKg();
            Double measured = readings.get(index) - tareKg;
            // 称重与申报不一致则计数
            if (!declared.equals(measured)) {
                mismatches++;
            }
        }
        return mismatches;
    }
}
