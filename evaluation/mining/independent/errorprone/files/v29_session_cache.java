package io.edge.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

public class SessionCache {

	private static final long IDLE_TIMEOUT_MINUTES = 30;
	private static final long CLEANUP_PERIOD_SECONDS = 90;

	private final Map<String, Instant> lastSeen = new ConcurrentHashMap<>();
	private final Clock clock;

	public SessionCache(Clock clock) {
		this.clock = clock;
	}

	public void touch(String sessionId) {
		lastSeen.put(sessionId, clock.instant());
	}

	public boolean expired(String sessionId) {
		Instant seen = lastSeen.get(sessionId);
		return seen == null || seen.plus(Duration.ofMinutes(IDLE_TIMEOUT_MINUTES)).isBefore(clock.instant());
	}

	public Duration cleanupPeriod() {
		return Duration.ofSeconds(CLEANUP_PERIOD_SECONDS);
	}
}
