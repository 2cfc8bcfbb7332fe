package io.edge.forms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.util.Map;
import java.util.StringJoiner;

public class FormEncoder {

    public byte[] encode(Map<String, String> fields) throws IOException {
        StringJoiner body = new StringJoiner("&");
        for (Map.Entry<String, String> field : fields.entrySet()) {
            body.add(URLEncoder.encode(field.getKey(), "UTF-8") + "=" + URLEncoder.encode(field.getValue(), "UTF-8"));
        }
        return body.toString().getBytes("UTF-8");
    }

    public String firstLine(InputStream response) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(response, "ISO-8859-1"));
        return reader.readLine();
    }
}
