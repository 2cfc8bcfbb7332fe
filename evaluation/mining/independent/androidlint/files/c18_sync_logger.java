package com.example.sync;

import java.io.IOException;
import timber.log.Timber;

public class SyncLogger {

    private int failures;

    public void onUploadFailed(String itemId, IOException error) {
        failures++;
        Timber.w(error, "upload of %s failed", itemId);
    }

    public void onConflict(String itemId, IllegalStateException conflict) {
        Timber.tag("Sync").e(conflict, "conflict on %s", itemId);
    }

    public void onFinished(int uploaded) {
        Timber.i("sync finished: %d uploaded, %d failed", uploaded, failures);
        failures = 0;
    }
}
