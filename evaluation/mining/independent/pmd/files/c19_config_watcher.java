package com.platform.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.Logger;

public class ConfigWatcher implements Runnable {

    private static final Logger LOG = Logger.getLogger(ConfigWatcher.class.getName());

    private final Path file;
    private volatile Properties current = new Properties();

    public ConfigWatcher(Path file) {
        this.file = file;
    }

    @Override
    public void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try (var reader = Files.newBufferedReader(file)) {
                Properties fresh = new Properties();
                fresh.load(reader);
                current = fresh;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "keeping previous configuration: " + file, e);
            }
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
