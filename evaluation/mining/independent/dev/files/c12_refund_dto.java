package com.paydesk.refund.dto;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Date;

public class RefundApplyDTO implements Serializable {

    private static final long serialVersionUID = 3027712260453621157L;

    private String refundNo;
    private BigDecimal amount;
    private String status;
    private Integer retryTimes;
    private Date applyTime;

    public String getRefundNo() {
        return refundNo;
    }

    public void setRefundNo(String refundNo) {
        this.refundNo = refundNo;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public Integer getRetryTimes() {
        return retryTimes;
    }

    public void setRetryTimes(Integer retryTimes) {
        this.retryTimes = retryTimes;
    }

    public Date getApplyTime() {
        return applyTime;
    }

    public void setApplyTime(Date applyTime) {
        this.applyTime = applyTime;
    }
}
