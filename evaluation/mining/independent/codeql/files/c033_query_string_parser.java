package web.query;

import java.util.HashMap;
import java.util.Map;

public final class QueryStringParser {

    private QueryStringParser() {
    }

    public static Map<String, String> parse(String query) {
        Map<String, String> params = new HashMap<>();
        do {
            if (query == null || query.isEmpty()) {
                break;
            }
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
        } while (false);
        return params;
    }
}
