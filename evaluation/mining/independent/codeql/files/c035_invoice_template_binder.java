package billing.templates;

import java.util.LinkedHashMap;
import java.util.Map;
import ognl.Ognl;
import ognl.OgnlException;

public class InvoiceTemplateBinder {

    private static final String[] FIELDS = {"customer.name", "total", "dueDate"};

    private final Map<String, Object> parsed = new LinkedHashMap<>();

    public InvoiceTemplateBinder() throws OgnlException {
        for (String field : FIELDS) {
            parsed.put(field, Ognl.parseExpression(field));
        }
    }

    public Map<String, Object> bind(Object invoice) throws OgnlException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, Object> field : parsed.entrySet()) {
            values.put(field.getKey(), Ognl.getValue(field.getValue(), invoice));
        }
        return values;
    }
}
