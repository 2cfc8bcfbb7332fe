package com.shop.events;

import com.google.protobuf.InvalidProtocolBufferException;
import com.shop.proto.OrderEvents.OrderPlaced;

public class OrderEventHandler {

    private final OrderStore store;

    public OrderEventHandler(OrderStore store) {
        this.store = store;
    }

    public void onMessage(byte[] payload) throws InvalidProtocolBufferException {
        OrderPlaced event = OrderPlaced.parseFrom(payload);
        if (event.getOrderId() == null) {
            return;
        }
        String coupon = event.getCouponCode() != null ? event.getCouponCode() : "";
        if (event.getShippingAddress() == null) {
            store.markIncomplete(event.getOrderId());
        }
        if (event.getLineItemsList() != null) {
            store.save(event.getOrderId(), event.getLineItemsList(), coupon);
        }
    }
}
