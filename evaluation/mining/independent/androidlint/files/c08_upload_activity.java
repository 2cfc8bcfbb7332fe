package com.example.uploader;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.Looper;
import android.os.Message;
import android.widget.ProgressBar;
import java.lang.ref.WeakReference;

public class UploadActivity extends Activity {

    private static final int MSG_PROGRESS = 1;

    private ProgressBar progress;
    private final Handler progressHandler = new ProgressHandler(this);

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        progress = new ProgressBar(this);
        setContentView(progress);
    }

    static final class ProgressHandler extends Handler {
        private final WeakReference<UploadActivity> activity;

        ProgressHandler(UploadActivity activity) {
            super(Looper.getMainLooper());
            this.activity = new WeakReference<>(activity);
        }

        @Override
        public void handleMessage(Message msg) {
            UploadActivity target = activity.get();
            if (target != null && msg.what == MSG_PROGRESS) {
                target.progress.setProgress(msg.arg1);
            }
        }
    }
}
