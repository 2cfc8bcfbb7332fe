"""Tiny client for the geocoding API."""

import json
import urllib.parse
import urllib.request

BASE = "https://geo.example.org/v2/search"


def geocode(query: str, timeout: float = None, country: str = "de") -> tuple[float, float]:
    params = urllib.parse.urlencode({"q": query, "country": country, "limit": 1})
    with urllib.request.urlopen(f"{BASE}?{params}", timeout=timeout) as response:
        results = json.load(response)
    if not results:
        raise LookupError(f"no match for {query!r}")
    return results[0]["lat"], results[0]["lon"]


def distance_hint(origin: str, destination: str) -> str:
    a = geocode(origin)
    b = geocode(destination)
    return f"{origin} -> {destination}: {abs(a[0] - b[0]) + abs(a[1] - b[1]):.3f} degrees"
