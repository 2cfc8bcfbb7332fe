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

    protected abstract B self();

    public static final class JsonRequestBuilder extends RequestBuilder<JsonRequestBuilder> {
        private String body;

        public JsonRequestBuilder body(String json) {
            this.body = json;
            return self();
        }

        @Override
        protected JsonRequestBuilder self() {
            return this;
        }

        public JsonRequestBuilder copy() {
            JsonRequestBuilder copy = new JsonRequestBuilder();
            copy.headers.putAll(headers);
            copy.url = url;
            copy.body = body;
            return copy;
        }
    }
}
