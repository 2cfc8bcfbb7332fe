package com.platform.audit;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.Iterables;
import java.util.List;
import java.util.stream.Stream;

public class AuditExport {

    private final AuditStore store;
    private final CsvWriter writer;

    public AuditExport(AuditStore store, CsvWriter writer) {
        this.store = store;
        this.writer = writer;
    }

    public void export(String tenant) {
        Stream<AuditEvent> events = store.events(tenant).filter(AuditEvent::isVisible);
        writer.writeAll(events::iterator);
    }

    public ImmutableList<String> actors(String tenant) {
        Iterable<String> names = store.events(tenant).map(AuditEvent::getActor)::iterator;
        return ImmutableList.copyOf(names);
    }

    public int count(List<String> tenants) {
        return Iterables.size(tenants.stream().flatMap(store::events)::iterator);
    }
}
