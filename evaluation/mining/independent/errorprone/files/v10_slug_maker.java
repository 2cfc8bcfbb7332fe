package com.cms.urls;

import java.util.Locale;

public final class SlugMaker {

    private SlugMaker() {
    }

    public static String slug(String title) {
        StringBuilder out = new StringBuilder(title.length());
        boolean dash = false;
        for (char ch : title.toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(ch)) {
                out.append(ch);
                dash = false;
            } else if (!dash && out.length() > 0) {
                out.append('-');
                dash = true;
            }
        }
        return out.toString();
    }

    public static int countUpper(String text) {
        int upper = 0;
        for (char ch : text.toCharArray()) {
            if (Character.isUpperCase(ch)) {
                upper++;
            }
        }
        return upper;
    }
}
