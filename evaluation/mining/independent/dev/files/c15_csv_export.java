package com.acme.billing.export;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.StringJoiner;

public class InvoiceCsvExporter {

    private static final String SEPARATOR = ",";
    private static final String HEADER = "invoice_no" + SEPARATOR + "amount" + SEPARATOR + "currency\n";

    public String export(ResultSet rs) throws SQLException {
        StringBuilder csv = new StringBuilder(HEADER);
        while (rs.next()) {
            csv.append(rs.getString("invoice_no")).append(SEPARATOR)
                    .append(rs.getBigDecimal("amount")).append(SEPARATOR)
                    .append(rs.getString("currency")).append('\n');
        }
        return csv.toString();
    }

    public String joinCodes(List<String> codes) {
        StringJoiner joiner = new StringJoiner(";");
        for (String code : codes) {
            joiner.add(code.trim());
        }
        return joiner.toString();
    }
}
