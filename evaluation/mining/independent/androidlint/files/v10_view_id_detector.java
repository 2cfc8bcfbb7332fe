package com.example.lint.checks;

import com.android.tools.lint.detector.api.Detector;
import com.android.tools.lint.detector.api.JavaContext;
import com.intellij.psi.PsiCodeBlock;
import com.intellij.psi.PsiExpression;
import java.util.Collections;
import java.util.List;
import org.jetbrains.uast.UClass;
import org.jetbrains.uast.UElement;
import org.jetbrains.uast.UField;
import org.jetbrains.uast.UMethod;

public class HardcodedViewIdDetector extends Detector implements Detector.UastScanner {

    @Override
    public List<Class<? extends UElement>> getApplicableUastTypes() {
        return Collections.singletonList(UClass.class);
    }

    public void visitClass(JavaContext context, UClass declaration) {
        for (UMethod method : declaration.getMethods()) {
            PsiCodeBlock body = method.getBody();
            if (body != null && body.getStatements().length > 50) {
                context.log(null, "long method " + method.getName());
            }
        }
        for (UField field : declaration.getFields()) {
            PsiExpression initializer = field.getInitializer();
            if (initializer != null && initializer.getText().startsWith("0x7f")) {
                context.log(null, "hard-coded id in " + field.getName());
            }
        }
    }
}
