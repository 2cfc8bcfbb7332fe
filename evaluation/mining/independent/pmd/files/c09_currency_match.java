package com.acme.fx;

import java.util.List;
import java.util.Locale;

public class CurrencyMatcher {

    private final List<String> supported;

    public CurrencyMatcher(List<String> supported) {
        this.supported = supported;
    }

    public boolean isEuro(String code) {
        return "EUR".equalsIgnoreCase(code);
    }

    public boolean isSupported(String code) {
        return supported.stream().anyMatch(candidate -> candidate.equalsIgnoreCase(code));
    }

    public String canonical(String code) {
        return code.trim().toUpperCase(Locale.ROOT);
    }
}
