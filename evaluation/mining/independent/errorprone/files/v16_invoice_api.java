package com.acme.billing.api;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/** Read access to issued invoices. */
public interface InvoiceApi {

    /** @return the invoices issued to the customer, newest first */
    List<Invoice> forCustomer(long customerId);

    /**
     * @param from first day, inclusive
     * @param to last day, inclusive
     * @return the sum of all invoice totals in the period
     */
    BigDecimal revenue(LocalDate from, LocalDate to);

    /**
     * Marks the invoice as paid.
     *
     * @param invoiceId the invoice
     */
    void markPaid(long invoiceId);
}
