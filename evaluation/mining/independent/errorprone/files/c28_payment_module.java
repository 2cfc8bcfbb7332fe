package com.paydesk.wiring;

import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;
import javax.sql.DataSource;

@Singleton
public class PaymentRepository {

    private final Clock clock;
    private DataSource dataSource;

    @Inject
    public PaymentRepository(Clock clock) {
        this.clock = clock;
    }

    @Inject
    void setDataSource(@Named("payments") DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public boolean ready() {
        return dataSource != null && clock != null;
    }
}
