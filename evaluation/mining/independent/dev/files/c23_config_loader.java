package com.platform.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

public class ConfigLoader {

    private final Path configDir;

    public ConfigLoader(Path configDir) {
        this.configDir = configDir;
    }

    public Properties load(String name) {
        Properties props = new Properties();
        InputStream in = null;
        try {
            in = Files.newInputStream(configDir.resolve(name + ".properties"));
            props.load(in);
            return props;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read config " + name, e);
        } finally {
            if (in != null) {
                try {
                    in.close();
                } catch (IOException e) {
                    System.err.println("close failed: " + e.getMessage());
                }
            }
        }
    }
}
