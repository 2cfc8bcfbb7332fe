package io.edge.i18n;

import java.util.Locale;
import java.util.Map;

public class LocaleResolver {

    private final Map<String, String> userPreferences;

    public LocaleResolver(Map<String, String> userPreferences) {
        this.userPreferences = userPreferences;
    }

    public Locale forUser(String userId) {
        String stored = userPreferences.getOrDefault(userId, "en_GB");
        return new Locale(stored);
    }

    public void remember(String userId, Locale locale) {
        userPreferences.put(userId, locale.toString());
    }

    public String language(String userId) {
        return forUser(userId).getLanguage();
    }
}
