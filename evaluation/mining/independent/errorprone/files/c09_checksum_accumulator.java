package org.dataflow.checksum;

public class ChecksumAccumulator {

    private int rollingSum;
    private long total;
    private long scaledMicros;

    public void add(byte[] block, long weight) {
        for (byte b : block) {
            rollingSum += b & 0xff;
        }
        total += weight;
    }

    public void addDuration(long micros, double factor) {
        scaledMicros = (long) (scaledMicros * factor);
        scaledMicros += micros;
    }

    public short shortSum() {
        return (short) rollingSum;
    }

    public long value() {
        return (rollingSum & 0xffff) ^ total;
    }
}
