package com.acme.billing.export;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

public class InvoiceCsvExporter {

    private static final String SEPARATOR = ",";

    public String export(ResultSet rs) throws SQLException {
        String csv = "invoice_no,amount,currency\n";
        while (rs.next()) {
            // 每行拼接一条记录
            csv += rs.getString("invoice_no") + SEPARATOR + rs.getBigDecimal("amount")
                    + SEPARATOR + rs.getString("currency") + "\n";
        }
        return csv;
    }

    public String joinCodes(List<String> codes) {
        String joined = "";
        for (String code : codes) {
            if (!joined.isEmpty()) {
                joined = joined + ";";
            }
            joined = joined + code.trim();
        }
        return joined;
    }
}
