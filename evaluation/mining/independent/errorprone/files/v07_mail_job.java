package com.notify.mail;

import java.time.Clock;
import java.util.List;

public class MailJob {

    private final MailTransport transport;
    private final Clock clock;

    public MailJob(MailTransport transport, Clock clock) {
        if (transport == null) {
            throw new NullPointerException("transport");
        }
        this.transport = transport;
        if (clock == null) {
            throw new NullPointerException("clock must not be null");
        }
        this.clock = clock;
    }

    public int send(List<Message> messages, String sender) {
        if (sender == null) throw new NullPointerException();
        int sent = 0;
        for (Message message : messages) {
            transport.deliver(sender, message, clock.instant());
            sent++;
        }
        return sent;
    }
}
