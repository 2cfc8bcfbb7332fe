package com.platform.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

public class ConfigWatcher implements Runnable {

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
                // keep the previous configuration
            }
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
            }
        }
    }

    public String get(String key) {
        return current.getProperty(key);
    }
}
