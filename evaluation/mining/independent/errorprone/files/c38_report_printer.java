package org.tools.reports;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class ReportPrinter {

    public void print(List<String[]> rows) {
        PrintWriter out = new PrintWriter(new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        for (String[] row : rows) {
            out.println(String.join(" | ", row));
        }
        out.flush();
    }

    public void save(List<String[]> rows, Path target) throws IOException {
        try (BufferedWriter file = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
            for (String[] row : rows) {
                file.write(String.join(",", row));
                file.newLine();
            }
        }
    }
}
