package com.shopcart.web.vo;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

public class OrderViewVO {

    @JsonProperty("order_no")
    private String orderNo;

    @JsonProperty("PAYSTATUS")
    private String payStatus;

    @JsonProperty("totalAmount")
    private BigDecimal totalAmount;

    public static Map<String, Object> error(String code, String message) {
        Map<String, Object> body = new HashMap<>(4);
        body.put("error_code", code);
        body.put("errorMessage", message);
        return body;
    }

    public String getOrderNo() {
        return orderNo;
    }

    public String getPayStatus() {
        return payStatus;
    }

    public BigDecimal getTotalAmount() {
        return totalAmount;
    }
}
