package io.netkit.session;

import java.io.Serializable;
import java.net.Socket;
import java.time.Instant;
import java.util.logging.Logger;

public class ClientSession implements Serializable {

    private static final long serialVersionUID = 7L;
    private static final Logger AUDIT_LOG = Logger.getLogger("audit");

    private final String sessionId;
    private final Instant startedAt;
    private transient Socket connection;
    private String lastCommand;

    public ClientSession(String sessionId, Socket connection) {
        this.sessionId = sessionId;
        this.startedAt = Instant.now();
        this.connection = connection;
    }

    public void onCommand(String command) {
        lastCommand = command;
        AUDIT_LOG.info(sessionId + " ran " + command);
    }

    public boolean isOpen() {
        return connection != null && !connection.isClosed();
    }

    public String lastCommand() {
        return lastCommand;
    }
}
