package mobile.sync;

public class SyncWorker {

    private final RemoteApi api;

    public SyncWorker(RemoteApi api) {
        this.api = api;
    }

    public int sync(int maxAttempts) {
        int attempts = 0;
        int pushed = 0;
        while (attempts < maxAttempts) {
            attempts++;
            int batch = api.pushPending();
            if (batch == 0) {
                break;
            }
            pushed += batch;
        }
        return pushed;
    }

    interface RemoteApi {
        int pushPending();
    }
}
