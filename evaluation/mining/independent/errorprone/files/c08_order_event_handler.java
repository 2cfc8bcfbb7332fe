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
        if (event.getOrderId().isEmpty()) {
            return;
        }
        if (!event.hasShippingAddress()) {
            store.markIncomplete(event.getOrderId());
        }
        if (event.getLineItemsCount() > 0) {
            store.save(event.getOrderId(), event.getLineItemsList(), event.getCouponCode());
        }
        OrderStore.Snapshot previous = store.find(event.getOrderId());
        if (previous == null) {
            store.created(event.getOrderId());
        }
    }
}
