package io.edge.routing;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

public class RouteTable {

	private static final Set<String> PUBLIC_PATHS = Set.of("/health", "/metrics");

	private final Map<String, String> upstreams = new HashMap<>();

	public RouteTable(Map<String, String> extra) {
		upstreams.putAll(Map.of(
				"/api/orders", "orders:8080",
				"/api/users", "users:8080"));
		upstreams.putAll(extra);
	}

	public String upstreamFor(String path) {
		for (Map.Entry<String, String> entry : upstreams.entrySet()) {
			if (path.startsWith(entry.getKey())) {
				return entry.getValue();
			}
		}
		return null;
	}

	public boolean isPublic(String path) {
		return PUBLIC_PATHS.contains(path);
	}
}
