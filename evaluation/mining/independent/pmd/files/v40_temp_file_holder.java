package org.dataflow.spool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public class TempFileHolder implements AutoCloseable {

    private final Path file;

    public TempFileHolder(String prefix) throws IOException {
        this.file = Files.createTempFile(prefix, ".spool");
    }

    public Path path() {
        return file;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    protected void finalize() throws Throwable {
    }
}
