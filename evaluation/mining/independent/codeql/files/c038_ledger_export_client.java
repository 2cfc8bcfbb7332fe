package finance.export;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.net.ssl.HttpsURLConnection;

public class LedgerExportClient {

    private final String credentials;

    public LedgerExportClient(String user, String password) {
        this.credentials = Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public byte[] download(String period) throws IOException {
        URL url = new URL("https://ledger.example.com/exports/" + period + ".csv");
        HttpsURLConnection connection = (HttpsURLConnection) url.openConnection();
        connection.setRequestProperty("Authorization", "Basic " + credentials);
        try (InputStream in = connection.getInputStream()) {
            return in.readAllBytes();
        }
    }
}
