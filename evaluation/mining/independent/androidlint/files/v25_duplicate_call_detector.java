package com.example.lint.checks;

import com.android.tools.lint.detector.api.Detector;
import com.android.tools.lint.detector.api.JavaContext;
import com.intellij.psi.PsiElement;
import com.intellij.psi.PsiMethod;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.uast.UCallExpression;

public class DuplicateCallDetector extends Detector implements Detector.UastScanner {

    private final List<PsiElement> seenTargets = new ArrayList<>();

    @Override
    public List<String> getApplicableMethodNames() {
        return List.of("commit", "apply");
    }

    @Override
    public void visitMethodCall(JavaContext context, UCallExpression node, PsiMethod method) {
        PsiElement receiver = node.getReceiver() == null ? null : node.getReceiver().getSourcePsi();
        for (PsiElement seen : seenTargets) {
            if (seen.equals(receiver)) {
                context.log(null, "second " + method.getName() + " on the same editor");
                return;
            }
        }
        if (method.getContainingClass() != null && method.getContainingClass().equals(node.getSourcePsi())) {
            return;
        }
        seenTargets.add(receiver);
    }
}
