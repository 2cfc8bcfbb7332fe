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
            List<String> chunk = lines.subList(from, Math.min(lines.size(), from + CHUNK));
            written += sink.write(chunk);
            // free the parsed rows before the next chunk
            System.gc();
        }
        return written;
    }

    public long usedMemoryBytes() {
        Runtime runtime = Runtime.getRuntime();
        runtime.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    public interface RecordSink {
        int write(List<String> rows);
    }
}
