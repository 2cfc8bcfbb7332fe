package org.dataflow.checksum;

public class ChecksumAccumulator {

    private short rollingSum;
    private int total;
    private long scaledMicros;

    public void add(byte[] block, long weight) {
        for (byte b : block) {
            rollingSum += b & 0xff;
        }
        total += weight;
    }

    public void addDuration(long micros, double factor) {
        scaledMicros *= factor;
        scaledMicros += micros;
    }

    public int value() {
        return (rollingSum & 0xffff) ^ total;
    }

    public long scaled() {
        return scaledMicros;
    }
}
