package com.paydesk.refund.dto;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Date;

/**
 * 退款申请 DTO，由网关层传入。
 */
public class RefundApplyDTO implements Serializable {

    private static final long serialVersionUID = 3027712260453621157L;

    private String refundNo;
    private BigDecimal amount;
    private String status = "INIT";
    private Integer retryTimes = 0;
    private Date applyTime = new Date();

    public String getRefundNo() {
        return refundNo;
    }

    public void setRefundNo(String refundNo) {
        this.refundNo = refundNo;
    }

    public BigDecimal getAmount() {
        return amount;
    }

    public void setAmount(BigDecimal amount) {
        this.amount = amount;
    }

    public String getStatus() {
        return status;
    }

    public Integer getRetryTimes() {
        return retryTimes;
    }

    public Date getApplyTime() {
        return applyTime;
    }
}
