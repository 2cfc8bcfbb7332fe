package com.acme.geo;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Collection;

public final class CountryRegistry {

    private final ImmutableMap<String, String> namesByCode = ImmutableMap.of(
            "DK", "Denmark",
            "NO", "Norway",
            "FI", "Finland");

    public ImmutableList<String> nordicCodes() {
        return ImmutableList.of("DK", "NO", "FI", "SE", "IS");
    }

    public ImmutableList<String> names() {
        return namesByCode.values().asList();
    }

    public boolean allKnown(Collection<String> codes) {
        return namesByCode.keySet().containsAll(codes);
    }
}
