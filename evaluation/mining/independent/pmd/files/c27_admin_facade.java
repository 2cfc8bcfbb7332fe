package com.shop.admin;

import java.math.BigDecimal;
import java.util.List;

public class OrderAdmin {

    private final Orders orders;

    public OrderAdmin(Orders orders) {
        this.orders = orders;
    }

    public Object findOrder(long id) {
        return orders.find(id);
    }

    public List<Object> ordersOf(long customerId) {
        return orders.byCustomer(customerId);
    }

    public void cancelOrder(long id) {
        orders.cancel(id);
    }

    public void refundOrder(long id) {
        orders.refund(id);
    }

    public int countOpenOrders() {
        return orders.countOpen();
    }

    BigDecimal openValue() {
        return orders.openValue();
    }

    private void audit(String action, long id) {
        orders.note(id, action);
    }
}
