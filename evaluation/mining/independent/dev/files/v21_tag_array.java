package com.cms.article;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

public class ArticleTagger {

    private final Set<String> reserved;

    public ArticleTagger(Set<String> reserved) {
        this.reserved = reserved;
    }

    public String[] normalise(List<String> rawTags) {
        Set<String> tags = new LinkedHashSet<>();
        for (String raw : rawTags) {
            String tag = raw.trim().toLowerCase();
            if (!tag.isEmpty() && !reserved.contains(tag)) {
                tags.add(tag);
            }
        }
        return (String[]) tags.toArray();
    }

    public String[] reservedSnapshot() {
        synchronized (reserved) {
            return reserved.toArray(new String[reserved.size()]);
        }
    }
}
