package com.shopcart.order.service;

import java.time.Duration;

public class OrderStatusService {

    private static final String STATUS_CACHE_PREFIX = "order:status:";
    private static final Duration STATUS_CACHE_TTL = Duration.ofMinutes(30);

    private final RedisClient redis;
    private final OrderRepository orders;

    public OrderStatusService(RedisClient redis, OrderRepository orders) {
        this.redis = redis;
        this.orders = orders;
    }

    public boolean cancel(long orderId) {
        Order order = orders.find(orderId);
        if (order.getStatus() == OrderStatus.SHIPPED.code() || order.getStatus() == OrderStatus.CLOSED.code()) {
            return false;
        }
        order.setStatus(OrderStatus.CANCELLED.code());
        orders.save(order);
        redis.delete(STATUS_CACHE_PREFIX + orderId);
        return true;
    }

    public void cacheStatus(Order order) {
        redis.set(STATUS_CACHE_PREFIX + order.getId(), String.valueOf(order.getStatus()), STATUS_CACHE_TTL);
    }
}
