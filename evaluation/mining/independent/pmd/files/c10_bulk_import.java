package org.dataflow.imports;

import java.util.List;

public class BulkImporter {

    private static final int CHUNK = 5_000;

    private final RecordSink sink;

    public BulkImporter(RecordSink sink) {
        this.sink = sink;
    }

    public long importAll(List<String> lines) {
        long written = 0;
        for (int from = 0; from < lines.size(); from += CHUNK) {
            written += sink.write(lines.subList(from, Math.min(lines.size(), from + CHUNK)));
        }
        return written;
    }

    public long usedMemoryBytes() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    public interface RecordSink {
        int write(List<String> rows);
    }
}
