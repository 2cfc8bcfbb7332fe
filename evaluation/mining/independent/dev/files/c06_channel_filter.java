package com.shopcart.report;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import javax.servlet.http.HttpServletRequest;

import com.shopcart.order.model.Order;

public class ChannelReport {

    private static final String MOBILE_APP = "APP";

    public List<Order> appOrders(List<Order> orders) {
        return orders.stream()
                .filter(o -> MOBILE_APP.equals(o.getChannel()))
                .collect(Collectors.toList());
    }

    public boolean isInternal(HttpServletRequest request) {
        // 常量在前，header 缺失时返回 false
        return "billing-job".equals(request.getHeader("X-Caller"));
    }

    public boolean sameChannel(Order left, Order right) {
        return Objects.equals(left.getChannel(), right.getChannel());
    }
}
