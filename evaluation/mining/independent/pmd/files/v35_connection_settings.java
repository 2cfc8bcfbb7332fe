package io.netkit.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

public class ConnectionSettings {

    public static int maxConnections = 32;
    protected static Duration connectTimeout = Duration.ofSeconds(3);
    static Map<String, String> overrides = new HashMap<>();

    private final String host;

    public ConnectionSettings(String host) {
        this.host = host;
    }

    public int effectiveMax() {
        String value = overrides.get(host + ".max");
        return value == null ? maxConnections : Integer.parseInt(value);
    }

    public Duration timeout() {
        return connectTimeout;
    }
}
