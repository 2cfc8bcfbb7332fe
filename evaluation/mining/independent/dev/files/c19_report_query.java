package com.acme.billing.report;

import java.time.LocalDate;
import java.util.List;
import java.util.stream.Collectors;

public class MonthlyReportService {

    private final InvoiceRepository invoiceRepository;
    private final ReportFormatter formatter;

    public MonthlyReportService(InvoiceRepository invoiceRepository, ReportFormatter formatter) {
        this.invoiceRepository = invoiceRepository;
        this.formatter = formatter;
    }

    public String render(long tenantId, LocalDate month) {
        List<Invoice> invoices = invoiceRepository.findByTenantAndPeriod(tenantId,
            month.withDayOfMonth(1), month.withDayOfMonth(month.lengthOfMonth()));
        List<String> rows = invoices.stream()
            .filter(Invoice::isIssued)
            .map(formatter::row)
            .collect(Collectors.toList());
        return formatter.page(month, rows, invoices.size());
    }
}
