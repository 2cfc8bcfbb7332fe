package io.edge.forms;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.util.Map;
import java.util.StringJoiner;

public class FormEncoder {

    public byte[] encode(Map<String, String> fields) {
        StringJoiner body = new StringJoiner("&");
        for (Map.Entry<String, String> field : fields.entrySet()) {
            body.add(URLEncoder.encode(field.getKey(), UTF_8) + "=" + URLEncoder.encode(field.getValue(), UTF_8));
        }
        return body.toString().getBytes(UTF_8);
    }

    public String firstLine(InputStream response) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(response, ISO_8859_1));
        return reader.readLine();
    }
}
