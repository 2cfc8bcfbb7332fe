package com.example.lint.checks;

import com.android.tools.lint.detector.api.Detector;
import com.android.tools.lint.detector.api.JavaContext;
import java.util.Collections;
import java.util.List;
import org.jetbrains.uast.UBlockExpression;
import org.jetbrains.uast.UClass;
import org.jetbrains.uast.UElement;
import org.jetbrains.uast.UExpression;
import org.jetbrains.uast.UField;
import org.jetbrains.uast.UMethod;

public class HardcodedViewIdDetector extends Detector implements Detector.UastScanner {

    @Override
    public List<Class<? extends UElement>> getApplicableUastTypes() {
        return Collections.singletonList(UClass.class);
    }

    public void visitClass(JavaContext context, UClass declaration) {
        for (UMethod method : declaration.getMethods()) {
            UExpression body = method.getUastBody();
            if (body instanceof UBlockExpression && ((UBlockExpression) body).getExpressions().size() > 50) {
                context.log(null, "long method " + method.getName());
            }
        }
        for (UField field : declaration.getFields()) {
            UExpression initializer = field.getUastInitializer();
            if (initializer != null && initializer.asSourceString().startsWith("0x7f")) {
                context.log(null, "hard-coded id in " + field.getName());
            }
        }
    }
}
