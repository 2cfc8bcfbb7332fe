package compliance.audit;

import java.time.Instant;
import java.util.List;

public class AuditTrailWriter {

    private final String actor;

    public AuditTrailWriter(String actor) {
        this.actor = actor;
    }

    public String render(List<String> actions) {
        StringBuilder trail = null;
        for (String action : actions) {
            trail.append(Instant.now()).append(' ').append(actor).append(": ").append(action).append('\n');
        }
        return trail == null ? "" : trail.toString();
    }
}
