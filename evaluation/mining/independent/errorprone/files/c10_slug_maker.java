package com.cms.urls;

import java.util.Arrays;
import java.util.Locale;

public final class SlugMaker {

    private SlugMaker() {
    }

    public static String slug(String title) {
        String lower = title.toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(lower.length());
        boolean dash = false;
        for (int i = 0; i < lower.length(); i++) {
            char ch = lower.charAt(i);
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

    public static long countUpper(String text) {
        return text.chars().filter(Character::isUpperCase).count();
    }

    public static String sortedLetters(String word) {
        char[] letters = word.toCharArray();
        Arrays.sort(letters);
        return new String(letters);
    }
}
