package mail.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

public class SmtpSettings {

    private final String host;
    private final int port;

    private SmtpSettings(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public static SmtpSettings load(InputStream in) throws IOException {
        Properties props = new Properties();
        props.load(in);
        String host = props.getProperty("smtp.host", "localhost");
        int port = Integer.parseInt(props.getProperty("smtp.port", "25"));
        return new SmtpSettings(host, port);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }
}
