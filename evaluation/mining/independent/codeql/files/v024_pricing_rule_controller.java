package pricing.web;

import java.math.BigDecimal;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class PricingRuleController {

    private final SpelExpressionParser parser = new SpelExpressionParser();

    @GetMapping("/pricing/preview")
    public Object preview(@RequestParam String rule, @RequestParam BigDecimal listPrice) {
        StandardEvaluationContext context = new StandardEvaluationContext();
        context.setVariable("price", listPrice);
        Expression expression = parser.parseExpression(rule);
        return expression.getValue(context);
    }
}
