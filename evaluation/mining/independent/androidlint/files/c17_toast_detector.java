package com.example.lint.checks;

import com.android.tools.lint.detector.api.Category;
import com.android.tools.lint.detector.api.Detector;
import com.android.tools.lint.detector.api.Implementation;
import com.android.tools.lint.detector.api.Issue;
import com.android.tools.lint.detector.api.Scope;
import com.android.tools.lint.detector.api.Severity;

public class ToastDetector extends Detector implements Detector.UastScanner {

    private static final Implementation IMPLEMENTATION =
            new Implementation(ToastDetector.class, Scope.JAVA_FILE_SCOPE);

    public static final Issue MISSING_SHOW = Issue.create(
            "ToastMissingShow",
            "Toast created but not shown",
            "A `Toast` that is never shown has no effect - call `show()` on it.",
            Category.CORRECTNESS,
            6,
            Severity.WARNING,
            IMPLEMENTATION);

    public static final Issue LONG_TEXT = Issue.create(
            "ToastTextTooLong",
            "Toast text is too long",
            "Toasts are shown briefly; long messages cannot be read in time.",
            Category.USABILITY,
            3,
            Severity.INFORMATIONAL,
            IMPLEMENTATION);
}
