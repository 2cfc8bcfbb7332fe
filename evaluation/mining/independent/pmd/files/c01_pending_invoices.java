package com.acme.billing.queue;

import java.util.LinkedHashMap;
import java.util.Map;

public class PendingInvoices {

    private final Map<String, Invoice> byNumber = new LinkedHashMap<>();

    public void add(Invoice invoice) {
        byNumber.put(invoice.getNumber(), invoice);
    }

    public Invoice[] drain() {
        Invoice[] batch = byNumber.values().toArray(new Invoice[0]);
        byNumber.clear();
        return batch;
    }

    public Object[] snapshotForLog() {
        return byNumber.keySet().toArray();
    }

    public static final class Invoice {
        private final String number;

        public Invoice(String number) {
            this.number = number;
        }

        public String getNumber() {
            return number;
        }
    }
}
