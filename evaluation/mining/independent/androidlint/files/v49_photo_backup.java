package com.example.photos.backup;

import android.content.Context;
import androidx.work.OneTimeWorkRequest;
import androidx.work.WorkContinuation;
import androidx.work.WorkManager;

public class PhotoBackupScheduler {

    private final WorkManager workManager;

    public PhotoBackupScheduler(Context context) {
        this.workManager = WorkManager.getInstance(context);
    }

    public void backupNow() {
        OneTimeWorkRequest compress = new OneTimeWorkRequest.Builder(CompressWorker.class).build();
        OneTimeWorkRequest upload = new OneTimeWorkRequest.Builder(UploadWorker.class).build();
        WorkContinuation chain = workManager.beginWith(compress).then(upload);
        logScheduled(chain);
    }

    public void cleanupOnly() {
        workManager.beginWith(new OneTimeWorkRequest.Builder(CleanupWorker.class).build());
    }

    private void logScheduled(WorkContinuation chain) {
        android.util.Log.d("PhotoBackup", "scheduled " + chain);
    }
}
