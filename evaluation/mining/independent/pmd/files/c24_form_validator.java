package com.forms.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class SignupValidator {

    public List<String> validate(Map<String, String> form, List<List<String>> bannedWordGroups) {
        List<String> errors = new ArrayList<>();
        String email = form.get("email");
        if (email == null || email.isBlank()) {
            errors.add("email is required");
        } else if (!email.contains("@")) {
            errors.add("email is malformed");
        }
        String nickname = form.getOrDefault("nickname", "");
        groups:
        for (List<String> group : bannedWordGroups) {
            for (String word : group) {
                if (nickname.contains(word)) {
                    errors.add("nickname is not allowed");
                    break groups;
                }
            }
        }
        return errors;
    }
}
