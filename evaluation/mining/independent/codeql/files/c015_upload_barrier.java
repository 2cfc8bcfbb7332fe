package media.upload;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

public class UploadBarrier {

    private final CountDownLatch remaining;

    public UploadBarrier(int parts) {
        this.remaining = new CountDownLatch(parts);
    }

    public void partUploaded() {
        remaining.countDown();
    }

    public void awaitAll(long seconds) throws InterruptedException, TimeoutException {
        if (!remaining.await(seconds, TimeUnit.SECONDS)) {
            throw new TimeoutException(remaining.getCount() + " part(s) still missing");
        }
    }
}
