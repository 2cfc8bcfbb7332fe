package com.notify.mail;

import java.nio.file.Path;
import java.util.List;

public class MailSender {

    private final SmtpTransport transport;

    public MailSender(SmtpTransport transport) {
        this.transport = transport;
    }

    public void send(String to, String subject, String body) {
        transport.deliver(to, subject, body, List.of());
    }

    public void send(List<Path> attachments, String to, String subject, String body) {
        transport.deliver(to, subject, body, attachments);
    }

    public void send(String subject, String body, String to, boolean highPriority) {
        transport.deliver(to, (highPriority ? "[!] " : "") + subject, body, List.of());
    }
}
