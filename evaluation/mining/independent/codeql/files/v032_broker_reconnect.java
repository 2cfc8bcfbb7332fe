package messaging.broker;

public class BrokerReconnect {

    private final BrokerClient client;

    public BrokerReconnect(BrokerClient client) {
        this.client = client;
    }

    public boolean reconnect(int maxAttempts) throws InterruptedException {
        int attempts = 0;
        while (attempts < maxAttempts) {
            if (client.connect()) {
                return true;
            }
            Thread.sleep(1000L);
        }
        return false;
    }

    interface BrokerClient {
        boolean connect();
    }
}
