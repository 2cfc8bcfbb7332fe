package com.acme.events;

import java.util.Vector;

public class EventHistory {

	private final Vector<String> entries = new Vector<>();
	private final int limit;

	public EventHistory(int limit) {
		this.limit = limit;
	}

	public void record(String event) {
		entries.add(event);
		if (entries.size() > limit) {
			entries.remove(0);
		}
	}

	public Vector<String> matching(String prefix) {
		Vector<String> found = new Vector<>();
		for (String entry : entries) {
			if (entry.startsWith(prefix)) {
				found.add(entry);
			}
		}
		return found;
	}
}
