package com.acme.jobs;

import java.util.ArrayDeque;
import java.util.Deque;

public class BoundedJobBuffer {

    private final Deque<Runnable> jobs = new ArrayDeque<>();
    private final Object monitor = new Object();
    private final int capacity;

    public BoundedJobBuffer(int capacity) {
        this.capacity = capacity;
    }

    public void put(Runnable job) throws InterruptedException {
        synchronized (monitor) {
            while (jobs.size() == capacity) {
                monitor.wait();
            }
            jobs.addLast(job);
            monitor.notifyAll();
        }
    }

    public Runnable take() throws InterruptedException {
        synchronized (monitor) {
            while (jobs.isEmpty()) {
                monitor.wait();
            }
            Runnable job = jobs.removeFirst();
            monitor.notifyAll();
            return job;
        }
    }
}
