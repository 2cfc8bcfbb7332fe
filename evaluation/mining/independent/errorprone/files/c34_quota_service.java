package io.edge.quota;

import java.util.logging.Logger;

public class QuotaService {

    private static final Logger LOG = Logger.getLogger(QuotaService.class.getName());

    private final QuotaStore store;

    public QuotaService(QuotaStore store) {
        this.store = store;
    }

    public void consume(String tenant, int units) {
        long left = store.remaining(tenant);
        if (left < units) {
            throw new IllegalStateException(String.format("quota exceeded for tenant %s", tenant));
        }
        store.consume(tenant, units);
        if (left - units < 100) {
            LOG.warning(String.format("tenant %s has %d units left", tenant, left - units));
            LOG.info("tenant is below one percent of the monthly quota");
        }
    }
}
