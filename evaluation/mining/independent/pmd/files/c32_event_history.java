package com.acme.events;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

public class EventHistory {

	private final List<String> entries = new CopyOnWriteArrayList<>();
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

	public List<String> matching(String prefix) {
		List<String> found = new ArrayList<>();
		for (String entry : entries) {
			if (entry.startsWith(prefix)) {
				found.add(entry);
			}
		}
		return found;
	}
}
