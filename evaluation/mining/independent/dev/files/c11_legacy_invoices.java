package com.acme.billing.migration;

import java.util.ArrayList;
import java.util.List;

import com.acme.billing.legacy.LegacyInvoiceDao;
import com.acme.billing.model.Invoice;

public class InvoiceMigration {

    private final LegacyInvoiceDao legacyDao;
    private final List<String> failures = new ArrayList<>();

    public InvoiceMigration(LegacyInvoiceDao legacyDao) {
        this.legacyDao = legacyDao;
    }

    public int migrate(String period) {
        List<?> rows = legacyDao.findByPeriod(period);
        List<Invoice> invoices = new ArrayList<>(rows.size());
        for (Object row : rows) {
            // 老接口未声明泛型，逐个判断类型
            if (row instanceof Invoice) {
                invoices.add((Invoice) row);
            } else {
                failures.add(period + ": unexpected row " + row);
            }
        }
        invoices.forEach(Invoice::markMigrated);
        return invoices.size();
    }

    public List<String> failures() {
        return failures;
    }
}
