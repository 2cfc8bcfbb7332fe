package com.shop.fulfilment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class FulfilmentService {

    private static final Logger LOG = LoggerFactory.getLogger(FulfilmentService.class);

    private final PickingService picking;
    private final Logger audit;

    public FulfilmentService(PickingService picking, Logger audit) {
        this.picking = picking;
        this.audit = audit;
    }

    public void fulfil(String orderNumber) {
        LOG.info("fulfilling {}", orderNumber);
        try {
            picking.pick(orderNumber);
            audit.info("picked {}", orderNumber);
        } catch (IllegalStateException e) {
            LOG.warn("cannot pick {}: {}", orderNumber, e.getMessage());
        }
    }
}
