package io.telemetry.sensors;

public class SensorStats {

    private double sum;
    private int samples;
    private float lastReading = Float.NaN;

    public void add(double reading) {
        if (reading == Double.NaN) {
            return;
        }
        sum += reading;
        samples++;
    }

    public double mean() {
        return samples == 0 ? Double.NaN : sum / samples;
    }

    public boolean hasLastReading() {
        return lastReading != Float.NaN;
    }

    public void update(float reading) {
        lastReading = reading;
    }
}
