package pricing.service;

import java.math.BigDecimal;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

public class DiscountPreviewService {

    private static final String DISCOUNT = "#price * (1 - #rate)";

    private final Expression discount = new SpelExpressionParser().parseExpression(DISCOUNT);

    public BigDecimal preview(BigDecimal price, BigDecimal rate) {
        SimpleEvaluationContext context = SimpleEvaluationContext.forReadOnlyDataBinding().build();
        context.setVariable("price", price);
        context.setVariable("rate", rate);
        return discount.getValue(context, BigDecimal.class);
    }
}
