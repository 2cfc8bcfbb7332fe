package org.dataflow.imports;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class ImportValidator {

    private final RowRules rules;

    public ImportValidator(RowRules rules) {
        this.rules = rules;
    }

    public Report validate(List<String[]> rows) {
        List<String[]> accepted = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        Map<String, Integer> errorsByColumn = new HashMap<>();
        for (String[] row : rows) {
            String error = rules.check(row);
            if (error == null) {
                accepted.add(row);
            } else {
                rejected.add(String.join(",", row) + " -> " + error);
                errorsByColumn.merge(error, 1, Integer::sum);
            }
        }
        return new Report(accepted, rejected, errorsByColumn);
    }

    public record Report(List<String[]> accepted, List<String> rejected, Map<String, Integer> errorsByColumn) {
    }
}
