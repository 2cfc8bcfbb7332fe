package com.shopcart.web.vo;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

public class OrderViewVO {

    /** 数据库列名，仅用于排序参数映射，不出现在 JSON 中 */
    public static final String SORT_COLUMN = "order_no";

    @JsonProperty("orderNo")
    private String orderNo;

    @JsonProperty("payStatus")
    private String payStatus;

    private BigDecimal totalAmount;

    public static Map<String, Object> error(String code, String message) {
        Map<String, Object> body = new HashMap<>(4);
        body.put("errorCode", code);
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
