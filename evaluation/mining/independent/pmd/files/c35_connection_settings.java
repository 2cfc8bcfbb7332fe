package io.netkit.config;

import java.time.Duration;
import java.util.Map;

public class ConnectionSettings {

    public static final int DEFAULT_MAX_CONNECTIONS = 32;
    public static final Map<String, String> DEFAULT_OVERRIDES = Map.of("localhost.max", "4");
    private static Duration connectTimeout = Duration.ofSeconds(3);

    private final String host;

    public ConnectionSettings(String host) {
        this.host = host;
    }

    public static synchronized void setConnectTimeout(Duration timeout) {
        connectTimeout = timeout;
    }

    public int effectiveMax() {
        String value = DEFAULT_OVERRIDES.get(host + ".max");
        return value == null ? DEFAULT_MAX_CONNECTIONS : Integer.parseInt(value);
    }
}
