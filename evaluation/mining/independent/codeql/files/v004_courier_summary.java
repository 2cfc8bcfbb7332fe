package logistics.reporting;

import java.util.Map;

public class CourierSummary {

    private final Map<String, Integer> parcelsByCourier;
    private final String region;

    public CourierSummary(Map<String, Integer> parcelsByCourier, String region) {
        this.parcelsByCourier = parcelsByCourier;
        this.region = region;
    }

    public String headline() {
        int total = parcelsByCourier.values().stream().mapToInt(Integer::intValue).sum();
        return String.format("%d parcels handed to %d couriers", total, parcelsByCourier.size(), region);
    }

    public String line(String courier) {
        Integer parcels = parcelsByCourier.getOrDefault(courier, 0);
        return courier + ": " + parcels;
    }

    public String render() {
        StringBuilder out = new StringBuilder(headline()).append('\n');
        for (String courier : parcelsByCourier.keySet()) {
            out.append(line(courier)).append('\n');
        }
        return out.toString();
    }
}
