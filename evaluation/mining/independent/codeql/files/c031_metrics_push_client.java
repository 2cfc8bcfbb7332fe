package observability.push;

import java.net.http.HttpClient;
import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import javax.net.ssl.SSLContext;

public final class MetricsPushClient {

    private MetricsPushClient() {
    }

    public static HttpClient create() throws NoSuchAlgorithmException, KeyManagementException {
        SSLContext tls = SSLContext.getInstance("TLSv1.3");
        tls.init(null, null, null);
        return HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(3))
                .build();
    }
}
