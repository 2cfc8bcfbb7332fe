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

    @SuppressWarnings("unchecked")
    public int migrate(String period) {
        List rows = legacyDao.findByPeriod(period);
        List<Invoice> invoices = rows;
        int migrated = 0;
        for (int index = 0; index < invoices.size(); index++) {
            Invoice invoice = invoices.get(index);
            try {
                invoice.markMigrated();
                migrated++;
            } catch (IllegalStateException e) {
                failures.add(period + "#" + index + ": " + e.getMessage());
            }
        }
        return migrated;
    }

    public List<String> failures() {
        return failures;
    }
}
