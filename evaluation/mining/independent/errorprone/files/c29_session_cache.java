package io.edge.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

public class SessionCache {

	private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);
	private static final Duration CLEANUP_PERIOD = Duration.ofSeconds(90);
	private static final long MAX_SESSIONS = 10_000;

	private final Map<String, Instant> lastSeen = new ConcurrentHashMap<>();
	private final Clock clock;

	public SessionCache(Clock clock) {
		this.clock = clock;
	}

	public boolean touch(String sessionId) {
		if (lastSeen.size() >= MAX_SESSIONS) {
			return false;
		}
		lastSeen.put(sessionId, clock.instant());
		return true;
	}

	public boolean expired(String sessionId) {
		Instant seen = lastSeen.get(sessionId);
		return seen == null || seen.plus(IDLE_TIMEOUT).isBefore(clock.instant());
	}

	public Duration cleanupPeriod() {
		return CLEANUP_PERIOD;
	}
}
