package com.forms.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class SignupValidator {

    public List<String> validate(Map<String, String> form) {
        List<String> errors = new ArrayList<>();
        String email = form.get("email");
        checks: {
            if (email == null || email.isBlank()) {
                errors.add("email is required");
                break checks;
            }
            if (!email.contains("@")) {
                errors.add("email is malformed");
                break checks;
            }
        }
        String password = form.getOrDefault("password", "");
        strength: if (password.length() < 12) {
            if (password.length() >= 8 && password.chars().anyMatch(Character::isDigit)) {
                break strength;
            }
            errors.add("password is too weak");
        }
        return errors;
    }
}
