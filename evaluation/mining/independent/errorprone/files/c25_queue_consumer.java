package com.acme.queue;

import java.util.List;

public class QueueConsumer {

    private final MessageQueue queue;
    private final Handler handler;
    private int processed;
    private int failed;

    public QueueConsumer(MessageQueue queue, Handler handler) {
        this.queue = queue;
        this.handler = handler;
    }

    public void drain(List<String> topics) {
        for (String topic : topics) {
            Message message = queue.poll(topic);
            try {
                handler.handle(message);
                processed++;
            } catch (RuntimeException e) {
                failed++;
            } finally {
                queue.ack(message);
            }
        }
    }

    public boolean healthy() {
        try {
            return queue.ping();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
