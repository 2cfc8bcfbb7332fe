package org.dataflow.export;

import static java.util.HashMap.SimpleEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class EntryExporter {

    public List<Map.Entry<String, Long>> topCounts(Map<String, Long> counts, int limit) {
        List<Map.Entry<String, Long>> sorted = new ArrayList<>();
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            sorted.add(new SimpleEntry<>(entry.getKey(), entry.getValue()));
        }
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        return sorted.subList(0, Math.min(limit, sorted.size()));
    }

    public String render(List<Map.Entry<String, Long>> rows) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Long> row : rows) {
            out.append(row.getKey()).append('\t').append(row.getValue()).append('\n');
        }
        return out.toString();
    }
}
