package com.platform.audit;

import com.google.common.collect.ImmutableList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;

public class AuditExport {

    private final AuditStore store;
    private final CsvWriter writer;

    public AuditExport(AuditStore store, CsvWriter writer) {
        this.store = store;
        this.writer = writer;
    }

    public void export(String tenant) {
        List<AuditEvent> events = store.events(tenant).filter(AuditEvent::isVisible).collect(Collectors.toList());
        writer.writeAll(events);
    }

    public ImmutableList<String> actors(String tenant) {
        return store.events(tenant).map(AuditEvent::getActor).collect(ImmutableList.toImmutableList());
    }

    public int countFirstPage(String tenant, int pageSize) {
        Iterator<AuditEvent> it = store.events(tenant).iterator();
        int seen = 0;
        while (it.hasNext() && seen < pageSize) {
            it.next();
            seen++;
        }
        return seen;
    }
}
