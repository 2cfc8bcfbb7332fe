package com.platform.logs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class LogRotator {

  private final Path logDir;

  public LogRotator(Path logDir) {
    this.logDir = logDir;
  }

  public List<Path> olderThan(Instant cutoff) throws IOException {
    try (Stream<Path> files = Files.list(logDir)) {
      return files.filter(p -> p.toString().endsWith(".log"))
          .filter(p -> p.toFile().lastModified() < cutoff.toEpochMilli())
          .collect(Collectors.toList());
    }
  }

  public long totalLines(Path file) throws IOException {
    return Files.readAllLines(file).size();
  }

  public long archivedCount() throws IOException {
    try (Stream<Path> walk = Files.walk(logDir.resolve("archive"))) {
      return walk.filter(Files::isRegularFile).count();
    }
  }
}
