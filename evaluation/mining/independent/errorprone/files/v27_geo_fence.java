package com.logistics.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

public class GeoFence {

    private final List<double[]> polygon;

    public GeoFence(List<double[]> polygon) {
        this.polygon = List.copyOf(polygon);
    }

    public boolean contains(double lat, double lon) {
        boolean inside = false;
        for (int i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
            double[] a = polygon.get(i);
            double[] b = polygon.get(j);
            boolean crosses = (a[1] > lon) != (b[1] > lon)
                    && lat < (b[0] - a[0]) * (lon - a[1]) / (b[1] - a[1]) + a[0];
            if (crosses) {
                inside = !inside;
            }
        }
        return inside;
    }
}
