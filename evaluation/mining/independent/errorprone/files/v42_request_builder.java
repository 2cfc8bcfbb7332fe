package io.netkit.http;

import java.util.LinkedHashMap;
import java.util.Map;

public abstract class RequestBuilder<B extends RequestBuilder<B>> {

    protected final Map<String, String> headers = new LinkedHashMap<>();
    protected String url;

    public B header(String name, String value) {
        headers.put(name, value);
        return self();
    }

    public B url(String url) {
        this.url = url;
        return self();
    }

    protected abstract B self();

    public static final class JsonRequestBuilder extends RequestBuilder<JsonRequestBuilder> {
        private String body;

        public JsonRequestBuilder body(String json) {
            this.body = json;
            return self();
        }

        @Override
        protected JsonRequestBuilder self() {
            JsonRequestBuilder copy = new JsonRequestBuilder();
            copy.headers.putAll(headers);
            copy.url = url;
            copy.body = body;
            return copy;
        }

        public JsonRequestBuilder getThis() {
            return new JsonRequestBuilder().url(url);
        }
    }
}
