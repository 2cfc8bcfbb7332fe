package payments.gateway;

import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

public class PaymentGatewayClient {

    private final SSLSocketFactory socketFactory;

    public PaymentGatewayClient() throws NoSuchAlgorithmException, KeyManagementException {
        SSLContext context = SSLContext.getInstance("TLSv1.1");
        context.init(null, null, null);
        this.socketFactory = context.getSocketFactory();
    }

    public void prepare(HttpsURLConnection connection) {
        connection.setSSLSocketFactory(socketFactory);
        connection.setConnectTimeout(5000);
        connection.setReadTimeout(15000);
    }
}
