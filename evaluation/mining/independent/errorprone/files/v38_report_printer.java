package org.tools.reports;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

public class ReportPrinter {

    public void print(List<String[]> rows) {
        try (PrintWriter out = new PrintWriter(new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8)))) {
            for (String[] row : rows) {
                out.println(String.join(" | ", row));
            }
        }
    }

    public void warn(String message) {
        try (PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8)) {
            err.println("warning: " + message);
        }
    }
}
