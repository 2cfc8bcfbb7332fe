package io.edge.i18n;

import java.util.Locale;
import java.util.Map;

public class LocaleResolver {

    private final Map<String, String> userPreferences;

    public LocaleResolver(Map<String, String> userPreferences) {
        this.userPreferences = userPreferences;
    }

    public Locale forUser(String userId) {
        String stored = userPreferences.getOrDefault(userId, "en-GB");
        return Locale.forLanguageTag(stored);
    }

    public void remember(String userId, Locale locale) {
        userPreferences.put(userId, locale.toLanguageTag());
    }

    public String language(String userId) {
        return forUser(userId).getLanguage();
    }
}
