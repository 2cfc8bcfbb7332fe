package io.edge.http;

import java.util.HashMap;
import java.util.Map;

public class HeaderRouter {

    private final Map<String, Handler> routes = new HashMap<>();

    public void register(String method, String path, Handler handler) {
        routes.put(method.toUpperCase() + " " + path, handler);
    }

    public Handler route(String method, String path, Map<String, String> headers) {
        Map<String, String> normalised = new HashMap<>();
        headers.forEach((name, value) -> normalised.put(name.toLowerCase(), value));
        Handler handler = routes.get(method.toUpperCase() + " " + path);
        if (handler == null && normalised.containsKey("x-forwarded-prefix")) {
            handler = routes.get("GET /fallback");
        }
        return handler;
    }

    public interface Handler {
        void handle(Map<String, String> headers);
    }
}
