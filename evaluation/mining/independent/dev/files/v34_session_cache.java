package com.gateway.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

public class SessionCache {

  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final SessionStore store;
  private int loaded;
  private int capacityLeft;

  public SessionCache(SessionStore store, int capacity) {
    this.store = store;
    this.capacityLeft = capacity;
  }

  public Session get(String token) {
    Session session;
    if ((session = sessions.get(token)) != null) {
      return session;
    }
    session = store.load(token);
    if (session != null) {
      sessions.put(token, session);
      capacityLeft = (loaded = loaded + 1) > 100 ? 0 : capacityLeft - 1;
    }
    return session;
  }

  public int capacityLeft() {
    return capacityLeft;
  }
}
