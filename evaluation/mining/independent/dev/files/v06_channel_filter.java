package com.shopcart.report;

import java.util.List;
import java.util.stream.Collectors;

import javax.servlet.http.HttpServletRequest;

import com.shopcart.order.model.Order;

public class ChannelReport {

    private static final String MOBILE_APP = "APP";

    public List<Order> appOrders(List<Order> orders) {
        // 渠道字段历史数据可能为空
        return orders.stream()
                .filter(o -> o.getChannel().equals(MOBILE_APP))
                .collect(Collectors.toList());
    }

    public boolean isInternal(HttpServletRequest request) {
        String caller = request.getHeader("X-Caller");
        return caller.equals("billing-job");
    }

    public long countByChannel(List<Order> orders, String channel) {
        long count = 0;
        for (Order order : orders) {
            if (channel.equalsIgnoreCase(order.getChannel())) {
                count++;
            }
        }
        return count;
    }
}
