package com.cms.templates;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Scanner;
import java.util.concurrent.ConcurrentHashMap;

public class TemplateLoader {

    private final Map<String, String> cache = new ConcurrentHashMap<>();

    public String load(String name) throws IOException {
        String cached = cache.get(name);
        if (cached != null) {
            return cached;
        }
        try (InputStream in = getClass().getResourceAsStream("/templates/" + name + ".html")) {
            if (in == null) {
                throw new IOException("no template " + name);
            }
            Scanner scanner = new Scanner(in, StandardCharsets.UTF_8.name()).useDelimiter("\\A");
            String body = scanner.hasNext() ? scanner.next() : "";
            cache.put(name, body);
            return body;
        }
    }
}
