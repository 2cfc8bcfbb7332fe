package com.notify.mail;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.util.List;

public class MailJob {

    private final MailTransport transport;
    private final Clock clock;

    public MailJob(MailTransport transport, Clock clock) {
        this.transport = requireNonNull(transport, "transport");
        this.clock = requireNonNull(clock, "clock");
    }

    public int send(List<Message> messages, String sender) {
        requireNonNull(sender, "sender");
        if (sender.isBlank()) {
            throw new IllegalArgumentException("sender must not be blank");
        }
        int sent = 0;
        for (Message message : messages) {
            transport.deliver(sender, message, clock.instant());
            sent++;
        }
        return sent;
    }
}
