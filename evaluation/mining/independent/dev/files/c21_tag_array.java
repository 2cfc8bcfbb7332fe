package com.cms.article;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

public class ArticleTagger {

    private static final String[] NO_TAGS = new String[0];

    private final Set<String> reserved;

    public ArticleTagger(Set<String> reserved) {
        this.reserved = reserved;
    }

    public String[] normalise(List<String> rawTags) {
        Set<String> tags = new LinkedHashSet<>(rawTags.size());
        for (String raw : rawTags) {
            String tag = raw.trim().toLowerCase();
            if (!tag.isEmpty() && !reserved.contains(tag)) {
                tags.add(tag);
            }
        }
        return tags.toArray(NO_TAGS);
    }

    public String[] reservedSnapshot() {
        synchronized (reserved) {
            return reserved.toArray(new String[0]);
        }
    }
}
