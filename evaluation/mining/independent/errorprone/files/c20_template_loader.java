package com.cms.templates;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Scanner;

public class TemplateLoader {

    public String load(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/templates/" + name + ".html")) {
            if (in == null) {
                throw new IOException("no template " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    public List<String> placeholders(String body) {
        List<String> names = new ArrayList<>();
        try (Scanner scanner = new Scanner(body)) {
            while (scanner.hasNextLine()) {
                String line = scanner.nextLine().trim();
                if (line.startsWith("{{") && line.endsWith("}}")) {
                    names.add(line.substring(2, line.length() - 2));
                }
            }
        }
        return names;
    }
}
