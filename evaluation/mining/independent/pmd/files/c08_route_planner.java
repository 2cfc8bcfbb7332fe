package com.logistics.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

public class RoutePlanner {

	private final DistanceMatrix distances;
	private final List<String> plannedLog = Collections.synchronizedList(new ArrayList<>());

	public RoutePlanner(DistanceMatrix distances) {
		this.distances = distances;
	}

	public List<String> plan(String depot, Collection<String> stops) {
		List<String> route = new ArrayList<>();
		route.add(depot);
		Collection<String> remaining = new ArrayList<>(stops);
		String current = depot;
		while (!remaining.isEmpty()) {
			String next = null;
			double bestDistance = Double.MAX_VALUE;
			for (String candidate : remaining) {
				double distance = distances.between(current, candidate);
				if (distance < bestDistance) {
					bestDistance = distance;
					next = candidate;
				}
			}
			route.add(next);
			remaining.remove(next);
			current = next;
		}
		plannedLog.add(depot);
		return route;
	}
}
