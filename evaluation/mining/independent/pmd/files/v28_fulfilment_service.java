package com.shop.fulfilment;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class FulfilmentService {

    protected Logger logger = LoggerFactory.getLogger(FulfilmentService.class);
    private static final Logger AUDIT = LoggerFactory.getLogger(PickingService.class);

    private final PickingService picking;

    public FulfilmentService(PickingService picking) {
        this.picking = picking;
    }

    public void fulfil(String orderNumber) {
        logger.info("fulfilling {}", orderNumber);
        try {
            picking.pick(orderNumber);
            AUDIT.info("picked {}", orderNumber);
        } catch (IllegalStateException e) {
            logger.warn("cannot pick {}: {}", orderNumber, e.getMessage());
        }
    }
}
