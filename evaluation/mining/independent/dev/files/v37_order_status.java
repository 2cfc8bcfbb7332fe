package com.shopcart.order.service;

import java.time.Duration;

public class OrderStatusService {

    private final RedisClient redis;
    private final OrderRepository orders;

    public OrderStatusService(RedisClient redis, OrderRepository orders) {
        this.redis = redis;
        this.orders = orders;
    }

    public boolean cancel(long orderId) {
        Order order = orders.find(orderId);
        if (order.getStatus() == 3 || order.getStatus() == 7) {
            return false;
        }
        order.setStatus(9);
        orders.save(order);
        redis.delete("order:status:" + orderId);
        return true;
    }

    public void cacheStatus(Order order) {
        redis.set("order:status:" + order.getId(), String.valueOf(order.getStatus()), Duration.ofMinutes(30));
    }
}
