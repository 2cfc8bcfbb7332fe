package retail.stock;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

public class StockLevelClient {

    private final String user;
    private final String password;

    public StockLevelClient(String user, String password) {
        this.user = user;
        this.password = password;
    }

    public byte[] fetch(String sku) throws IOException {
        URL url = new URL("http://inventory.internal:8080/api/stock/" + sku);
        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
        String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        connection.setRequestProperty("Authorization", "Basic " + token);
        try (InputStream in = connection.getInputStream()) {
            return in.readAllBytes();
        }
    }
}
