package com.platform.logs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

public class LogRotator {

  private final Path logDir;

  public LogRotator(Path logDir) {
    this.logDir = logDir;
  }

  public List<Path> olderThan(Instant cutoff) throws IOException {
    return Files.list(logDir)
        .filter(p -> p.toString().endsWith(".log"))
        .filter(p -> p.toFile().lastModified() < cutoff.toEpochMilli())
        .collect(Collectors.toList());
  }

  public long totalLines(Path file) throws IOException {
    return Files.lines(file).count();
  }

  public long archivedCount() throws IOException {
    return Files.walk(logDir.resolve("archive")).filter(Files::isRegularFile).count();
  }
}
