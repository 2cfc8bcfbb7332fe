package io.telemetry.registry;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

public class MetricRegistry {

    private final Map<String, Object> gauges = new ConcurrentHashMap<>();

    public void gauge(String name, Supplier<Number> value) {
        gauges.put(name, value);
    }

    public void gauge(String name, String unit, Supplier<Number> value) {
        gauges.put(name + "." + unit, value);
    }

    public void checkedGauge(String name, Callable<Number> value) {
        gauges.put(name, value);
    }

    public <T> void longCounter(String name, T source, ToLongFunction<T> reader) {
        gauges.put(name, (Supplier<Long>) () -> reader.applyAsLong(source));
    }

    public <T> void doubleCounter(String name, T source, ToDoubleFunction<T> reader) {
        gauges.put(name, (Supplier<Double>) () -> reader.applyAsDouble(source));
    }
}
