package com.shop.orders;

public class OrderStateMachine {

    private final Notifier notifier;

    public OrderStateMachine(Notifier notifier) {
        this.notifier = notifier;
    }

    public OrderState next(OrderState current, OrderEvent event, String orderId) {
        OrderState result = current;
        switch (event) {
            case PAID:
                result = OrderState.PROCESSING;
                notifier.paymentReceived(orderId);
            case SHIPPED:
                result = OrderState.IN_TRANSIT;
                notifier.shipped(orderId);
                break;
            case CANCELLED:
                if (current == OrderState.IN_TRANSIT) {
                    throw new IllegalStateException("already shipped: " + orderId);
                }
                result = OrderState.CANCELLED;
                break;
            default:
                break;
        }
        return result;
    }
}
