package com.acme.billing.queue;

import java.util.LinkedHashMap;
import java.util.Map;

public class PendingInvoices {

    private final Map<String, Invoice> byNumber = new LinkedHashMap<>();
    private int flushes;

    public void add(Invoice invoice) {
        byNumber.put(invoice.getNumber(), invoice);
    }

    public Invoice[] drain() {
        Invoice[] batch = (Invoice[]) byNumber.values().toArray();
        byNumber.clear();
        flushes++;
        return batch;
    }

    public int flushes() {
        return flushes;
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
