package com.acme.jobs;

import java.util.ArrayDeque;
import java.util.Deque;

public class BoundedJobBuffer {

    private final Deque<Runnable> jobs = new ArrayDeque<>();
    private final int capacity;

    public BoundedJobBuffer(int capacity) {
        this.capacity = capacity;
    }

    public synchronized void put(Runnable job) throws InterruptedException {
        while (jobs.size() == capacity) {
            wait();
        }
        jobs.addLast(job);
        notify();
    }

    public Runnable take() throws InterruptedException {
        synchronized (this) {
            while (jobs.isEmpty()) {
                wait();
            }
            Runnable job = jobs.removeFirst();
            this.notify();
            return job;
        }
    }
}
