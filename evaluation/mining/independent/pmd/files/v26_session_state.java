package io.netkit.session;

import java.io.Serializable;
import java.net.Socket;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Logger;

public class ClientSession implements Serializable {

    private static final long serialVersionUID = 7L;

    private final String sessionId;
    private final Instant startedAt;
    private final Logger auditLog = Logger.getLogger("audit");
    private Socket connection;
    private Optional<String> lastCommand = Optional.empty();

    public ClientSession(String sessionId, Socket connection) {
        this.sessionId = sessionId;
        this.startedAt = Instant.now();
        this.connection = connection;
    }

    public void onCommand(String command) {
        lastCommand = Optional.of(command);
        auditLog.info(sessionId + " ran " + command);
    }

    public boolean isOpen() {
        return connection != null && !connection.isClosed();
    }

    public Instant startedAt() {
        return startedAt;
    }
}
