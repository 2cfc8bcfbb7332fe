package mail.parse;

import java.util.LinkedHashMap;
import java.util.Map;

public class HeaderLineParser {

    private final Map<String, String> headers = new LinkedHashMap<>();

    public void accept(String line) {
        do {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                break;
            }
            headers.put(line.substring(0, colon).trim().toLowerCase(), line.substring(colon + 1).trim());
        } while (false);
    }

    public Map<String, String> headers() {
        return headers;
    }
}
