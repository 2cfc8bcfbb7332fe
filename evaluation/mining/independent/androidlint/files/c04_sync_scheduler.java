package com.example.sync;

import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

public class SyncScheduler {

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final SyncTask task;

    public SyncScheduler(SyncTask task) {
        this.task = task;
    }

    public void start(long periodMinutes) {
        executor.scheduleAtFixedRate(task::run, 0, periodMinutes, MINUTES);
    }

    public boolean stop() throws InterruptedException {
        executor.shutdown();
        return executor.awaitTermination(30, SECONDS);
    }

    public long backoffMillis(int attempt) {
        return SECONDS.toMillis(Math.min(300, 1L << attempt));
    }
}
