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

    @Override
    public String call() throws Exception {
        return call(day);
    }

    // not an override: a different parameter list
    public String call(LocalDate other) {
        return renderer.render(other);
    }

    @Override
    public String toString() {
        return "DailyReportTask[" + day + "]";
    }

    public interface ReportRenderer {
        String render(LocalDate day);
    }
}
