package org.dataflow.archive;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads entries from tar archives; see {@link java.nio.file.Files} for the underlying access.
 */
public interface ArchiveReader {

    /**
     * Lists the entry names of an archive.
     *
     * @param archive the archive file
     * @return entry names in archive order
     * @throws IOException if the archive cannot be read, for example a {@link java.nio.file.NoSuchFileException}
     */
    List<String> list(Path archive) throws IOException;

    /**
     * Extracts one entry into a directory.
     *
     * @param archive the archive file
     * @param entry the entry name
     * @param target the directory to extract into
     * @throws IllegalArgumentException if the entry is not in the archive
     * @throws IOException if writing fails
     */
    void extract(Path archive, String entry, Path target) throws IOException;
}
