package com.paydesk.refund;

import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

public class RefundGate {

    private final Set<Long> frozenAccounts;
    private final BigDecimal autoApproveLimit;
    private final AuditLog auditLog;

    public RefundGate(Set<Long> frozenAccounts, BigDecimal autoApproveLimit, AuditLog auditLog) {
        this.frozenAccounts = frozenAccounts;
        this.autoApproveLimit = autoApproveLimit;
        this.auditLog = auditLog;
    }

    public boolean approve(RefundRequest request, List<Payment> payments) {
        auditLog.record("refund requested", request.getId());
        if (request.getAmount().compareTo(autoApproveLimit) <= 0 && !frozenAccounts.contains(request.getAccountId())
                && payments.stream().anyMatch(p -> p.getId().equals(request.getPaymentId()) && p.isSettled())
                || request.getOperator() != null && request.getOperator().hasRole("REFUND_ADMIN")) {
            auditLog.record("refund approved", request.getId());
            return true;
        }
        auditLog.record("refund sent to manual review", request.getId());
        return false;
    }

    public interface AuditLog {
        void record(String event, String refundId);
    }
}
