package com.intranet.mail;

import java.util.Map;
import javax.mail.Session;
import javax.naming.InitialContext;
import javax.naming.NamingException;

public class MailSessionLocator {

    private static final Map<String, String> SESSIONS = Map.of(
            "notifications", "java:comp/env/mail/Notifications",
            "billing", "java:comp/env/mail/Billing");

    private final InitialContext context;

    public MailSessionLocator() throws NamingException {
        this.context = new InitialContext();
    }

    public Session forChannel(String channel) throws NamingException {
        String jndiName = SESSIONS.get(channel);
        if (jndiName == null) {
            throw new IllegalArgumentException("unknown mail channel " + channel);
        }
        return (Session) context.lookup(jndiName);
    }
}
