package com.acme.reports.jobs;

import java.time.LocalDate;
import java.util.concurrent.Callable;

public class DailyReportTask implements Callable<String> {

    private final ReportRenderer renderer;
    private final LocalDate day;

    public DailyReportTask(ReportRenderer renderer, LocalDate day) {
        this.renderer = renderer;
        this.day = day;
    }

    public String call() throws Exception {
        String body = renderer.render(day);
        if (body.isEmpty()) {
            throw new IllegalStateException("empty report for " + day);
        }
        return body;
    }

    public String toString() {
        return "DailyReportTask[" + day + "]";
    }

    public interface ReportRenderer {
        String render(LocalDate day);
    }
}
