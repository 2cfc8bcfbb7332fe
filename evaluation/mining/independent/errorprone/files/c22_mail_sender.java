package com.notify.mail;

import java.nio.file.Path;
import java.util.List;

public class MailSender {

    private final SmtpTransport transport;

    public MailSender(SmtpTransport transport) {
        this.transport = transport;
    }

    public void send(String to, String subject, String body) {
        send(to, subject, body, List.of());
    }

    public void send(String to, String subject, String body, List<Path> attachments) {
        transport.deliver(to, subject, body, attachments);
    }

    public void send(String to, String subject, String body, List<Path> attachments, boolean highPriority) {
        transport.deliver(to, (highPriority ? "[!] " : "") + subject, body, attachments);
    }
}
