package io.edge.http;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

public class HeaderRouter {

    private final Map<String, Handler> routes = new HashMap<>();

    public void register(String method, String path, Handler handler) {
        routes.put(method.toUpperCase(Locale.ROOT) + " " + path, handler);
    }

    public Handler route(String method, String path, Map<String, String> headers) {
        Map<String, String> normalised = new HashMap<>();
        headers.forEach((name, value) -> normalised.put(name.toLowerCase(Locale.ROOT), value));
        Handler handler = routes.get(method.toUpperCase(Locale.ROOT) + " " + path);
        boolean head = "HEAD".equalsIgnoreCase(method);
        if (handler == null && head) {
            handler = routes.get("GET " + path);
        }
        return handler;
    }

    public interface Handler {
        void handle(Map<String, String> headers);
    }
}
