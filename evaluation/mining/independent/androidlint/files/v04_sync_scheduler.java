package com.example.sync;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

public class SyncScheduler {

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final SyncTask task;

    public SyncScheduler(SyncTask task) {
        this.task = task;
    }

    public void start(long periodMinutes) {
        executor.scheduleAtFixedRate(task::run, 0, periodMinutes, TimeUnit.MINUTES);
    }

    public boolean stop() throws InterruptedException {
        executor.shutdown();
        return executor.awaitTermination(30, TimeUnit.SECONDS);
    }

    public long backoffMillis(int attempt) {
        return TimeUnit.SECONDS.toMillis(Math.min(300, 1L << attempt));
    }
}
