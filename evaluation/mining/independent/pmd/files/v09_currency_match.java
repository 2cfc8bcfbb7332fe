package com.acme.fx;

import java.util.List;
import java.util.Locale;

public class CurrencyMatcher {

    private final List<String> supported;

    public CurrencyMatcher(List<String> supported) {
        this.supported = supported;
    }

    public boolean isEuro(String code) {
        return code.toUpperCase(Locale.ROOT).equals("EUR");
    }

    public boolean isSupported(String code) {
        for (String candidate : supported) {
            if (candidate.toLowerCase(Locale.ROOT).equalsIgnoreCase(code)) {
                return true;
            }
        }
        return false;
    }

    public String display(String code) {
        return code.toUpperCase(Locale.ROOT) + " (" + supported.size() + " supported)";
    }
}
