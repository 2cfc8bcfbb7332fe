package weather.station;

public class SensorAverage {

    private final double[] samples;

    public SensorAverage(double[] samples) {
        this.samples = samples.clone();
    }

    public double mean() {
        if (samples.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (int i = 0; i <= samples.length; i++) {
            sum += samples[i];
        }
        return sum / samples.length;
    }

    public double max() {
        double best = Double.NEGATIVE_INFINITY;
        for (double s : samples) {
            best = Math.max(best, s);
        }
        return best;
    }
}
