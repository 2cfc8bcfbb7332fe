package com.example.uploader;

import android.app.Activity;
import android.os.Bundle;
import android.os.Handler;
import android.os.Message;
import android.widget.ProgressBar;

public class UploadActivity extends Activity {

    private static final int MSG_PROGRESS = 1;

    private ProgressBar progress;
    private final Handler progressHandler = new ProgressHandler();

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        progress = new ProgressBar(this);
        setContentView(progress);
    }

    class ProgressHandler extends Handler {
        @Override
        public void handleMessage(Message msg) {
            if (msg.what == MSG_PROGRESS) {
                progress.setProgress(msg.arg1);
            }
        }
    }

    private final Handler doneHandler = new Handler() {
        @Override
        public void handleMessage(Message msg) {
            finish();
        }
    };
}
