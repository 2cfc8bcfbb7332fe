package org.dataflow.export;

import static java.util.Map.Entry.comparingByValue;

import java.util.AbstractMap.SimpleEntry;
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

    public List<Map.Entry<String, Long>> ascending(List<Map.Entry<String, Long>> rows) {
        List<Map.Entry<String, Long>> copy = new ArrayList<>(rows);
        copy.sort(comparingByValue());
        return copy;
    }
}
