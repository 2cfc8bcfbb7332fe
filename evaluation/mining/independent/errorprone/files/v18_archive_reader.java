package org.dataflow.archive;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads entries from tar archives.
 */
public interface ArchiveReader {

    /**
     * Lists the entry names of an archive.
     *
     * @param archive the archive file
     * @return entry names in archive order
     * @throws {@link IOException} if the archive cannot be read
     */
    List<String> list(Path archive) throws IOException;

    /**
     * Extracts one entry into a directory.
     *
     * @param archive the archive file
     * @param entry the entry name
     * @param target the directory to extract into
     * @throws {@code IllegalArgumentException} if the entry is not in the archive
     */
    void extract(Path archive, String entry, Path target) throws IOException;
}
