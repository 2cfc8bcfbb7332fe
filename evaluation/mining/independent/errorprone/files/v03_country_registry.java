package com.acme.geo;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Collection;
import java.util.Map;

public final class CountryRegistry {

    private final Map<String, String> namesByCode = ImmutableMap.of(
            "DK", "Denmark",
            "NO", "Norway",
            "FI", "Finland");

    public Collection<String> nordicCodes() {
        return ImmutableList.of("DK", "NO", "FI", "SE", "IS");
    }

    public Iterable<String> names() {
        return ImmutableList.copyOf(namesByCode.values());
    }

    public String nameOf(String code) {
        return namesByCode.getOrDefault(code, code);
    }
}
