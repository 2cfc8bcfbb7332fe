package plant.telemetry;

public class TankLevel {

    private double litres;
    private double capacity;

    public TankLevel(double litres, double capacity) {
        this.litres = litres;
        this.capacity = capacity;
    }

    public void setLitres(double litres) {
        this.litres = Math.min(litres, capacity);
    }

    public void setCapacity(double capacity) {
        this.capacity = capacity;
        this.litres = Math.min(this.litres, capacity);
    }

    public double fillRatio() {
        return capacity == 0 ? 0 : litres / capacity;
    }
}
