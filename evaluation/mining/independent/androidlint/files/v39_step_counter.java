package com.example.fitness;

import android.hardware.Sensor;
import android.hardware.SensorEvent;
import android.hardware.SensorEventListener;
import java.util.ArrayList;
import java.util.List;

public class StepCounter implements SensorEventListener {

    private final List<Integer> samples = new ArrayList<>();
    private Float lastCadence = new Float(0f);
    private Boolean active = new Boolean(false);

    @Override
    public void onSensorChanged(SensorEvent event) {
        int steps = (int) event.values[0];
        samples.add(new Integer(steps));
        active = Boolean.TRUE;
        if (samples.size() > 1) {
            int delta = steps - samples.get(samples.size() - 2);
            lastCadence = delta * 60f;
        }
    }

    @Override
    public void onAccuracyChanged(Sensor sensor, int accuracy) {
    }

    public Float cadence() {
        return lastCadence;
    }

    public boolean isActive() {
        return active;
    }
}
