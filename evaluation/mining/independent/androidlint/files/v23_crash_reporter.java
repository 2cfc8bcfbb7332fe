package com.example.crash;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;

public class CrashReporter {

    private final File reportDir;

    public CrashReporter(File reportDir) {
        this.reportDir = reportDir;
    }

    public File write(String threadName, Throwable error) throws IOException {
        File report = new File(reportDir, "crash-" + System.currentTimeMillis() + ".txt");
        try (FileWriter writer = new FileWriter(report)) {
            writer.write(threadName + ": " + error);
        }
        return report;
    }

    public void upload(File report, OutputStream out) throws IOException {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(new FileInputStream(report)))) {
            String header = "report " + report.getName() + "\n";
            out.write(header.getBytes());
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                out.write((line + "\n").getBytes());
            }
        }
    }
}
