package io.edge.routing;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

public class RouteTable {

	private final Map<String, String> upstreams = new HashMap<String, String>() {{
		put("/api/orders", "orders:8080");
		put("/api/users", "users:8080");
		put("/api/search", "search:9200");
	}};

	private static final Set<String> PUBLIC_PATHS = new HashSet<String>() {{
		add("/health");
		add("/metrics");
	}};

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
