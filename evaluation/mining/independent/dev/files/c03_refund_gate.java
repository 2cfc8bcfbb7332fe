package com.paydesk.refund;

import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

public class RefundDecider {

    private final Set<Long> frozenAccounts;
    private final BigDecimal autoApproveLimit;

    public RefundDecider(Set<Long> frozenAccounts, BigDecimal autoApproveLimit) {
        this.frozenAccounts = frozenAccounts;
        this.autoApproveLimit = autoApproveLimit;
    }

    public boolean approve(RefundRequest request, List<Payment> payments) {
        if (request.isCancelled()) {
            return false;
        }
        final boolean smallAmount = request.getAmount().compareTo(autoApproveLimit) <= 0;
        final boolean accountUsable = !frozenAccounts.contains(request.getAccountId());
        final boolean paymentSettled = payments.stream()
            .anyMatch(p -> p.getId().equals(request.getPaymentId()) && p.isSettled());
        final boolean adminOverride = request.getOperator() != null && request.getOperator().hasRole("REFUND_ADMIN");
        // 自动通过：小额且账户正常且已结算，或管理员放行
        final boolean autoApproved = smallAmount && accountUsable && paymentSettled || adminOverride;
        if (autoApproved) {
            request.markApproved();
        }
        return autoApproved;
    }
}
