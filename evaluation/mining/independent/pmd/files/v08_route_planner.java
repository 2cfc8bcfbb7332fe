package com.logistics.routing;

import java.util.Collection;
import java.util.List;
import java.util.Vector;

public class RoutePlanner {

	private final DistanceMatrix distances;

	public RoutePlanner(DistanceMatrix distances) {
		this.distances = distances;
	}

	public List<String> plan(String depot, Collection<String> stops) {
		List<String> route = new Vector<>();
		route.add(depot);
		Collection<String> remaining = new Vector<>(stops);
		String current = depot;
		while (!remaining.isEmpty()) {
			String next = nearest(current, remaining);
			route.add(next);
			remaining.remove(next);
			current = next;
		}
		return route;
	}

	private String nearest(String from, Collection<String> candidates) {
		String best = null;
		double bestDistance = Double.MAX_VALUE;
		for (String candidate : candidates) {
			double d = distances.between(from, candidate);
			if (d < bestDistance) {
				bestDistance = d;
				best = candidate;
			}
		}
		return best;
	}
}
