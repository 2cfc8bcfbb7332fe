package org.dataflow.spool;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;

public class TempFileHolder implements AutoCloseable {

    private static final Cleaner CLEANER = Cleaner.create();

    private final Path file;
    private final Cleaner.Cleanable cleanable;

    public TempFileHolder(String prefix) throws IOException {
        this.file = Files.createTempFile(prefix, ".spool");
        Path target = file;
        this.cleanable = CLEANER.register(this, () -> target.toFile().delete());
    }

    public Path path() {
        return file;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
        cleanable.clean();
    }
}
