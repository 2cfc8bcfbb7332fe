package com.shop.orders;

public class OrderStateMachine {

    private final Notifier notifier;

    public OrderStateMachine(Notifier notifier) {
        this.notifier = notifier;
    }

    public OrderState next(OrderState current, OrderEvent event, String orderId) {
        switch (event) {
            case PAID:
                notifier.paymentReceived(orderId);
                return OrderState.PROCESSING;
            case REFUNDED:
                notifier.refunded(orderId);
                // fall through
            case CANCELLED:
                if (current == OrderState.IN_TRANSIT) {
                    throw new IllegalStateException("already shipped: " + orderId);
                }
                return OrderState.CANCELLED;
            case SHIPPED:
                notifier.shipped(orderId);
                return OrderState.IN_TRANSIT;
            default:
                return current;
        }
    }
}
