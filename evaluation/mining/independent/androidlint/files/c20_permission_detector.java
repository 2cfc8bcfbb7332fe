package com.example.lint.checks;

import com.android.tools.lint.detector.api.Category;
import com.android.tools.lint.detector.api.Detector;
import com.android.tools.lint.detector.api.Implementation;
import com.android.tools.lint.detector.api.Issue;
import com.android.tools.lint.detector.api.Scope;
import com.android.tools.lint.detector.api.Severity;

public class RuntimePermissionDetector extends Detector implements Detector.UastScanner {

    public static final Issue UNCHECKED_PERMISSION = Issue.create(
                    "UncheckedRuntimePermission",
                    "Runtime permission not checked",
                    "Call `checkSelfPermission` before using an API guarded by a dangerous permission.",
                    Category.SECURITY,
                    7,
                    Severity.ERROR,
                    new Implementation(RuntimePermissionDetector.class, Scope.JAVA_FILE_SCOPE))
            .addMoreInfo("https://issuetracker.google.com/issues/172345120")
            .addMoreInfo("https://developer.android.com/training/permissions/requesting");

    public RuntimePermissionDetector() {
        super();
    }
}
