package subscriptions.notify;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;

public class RenewalNotice {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMMM yyyy");

    public String body(String name, LocalDate expiry, boolean autoRenew) {
        StringBuilder text = new StringBuilder();
        text.append("Hello ").append(name).append(",\n\n");
        text.append("Your plan expires"
                + "on " + DAY.format(expiry) + ".\n");
        if (autoRenew) {
            text.append("It will renew automatically; no action is needed.\n");
        } else {
            text.append("Renew from your account page to keep your projects online.\n");
        }
        return text.toString();
    }
}
