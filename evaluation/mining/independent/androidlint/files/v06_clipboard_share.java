package com.example.share;

import android.app.Activity;
import android.app.DownloadManager;
import android.app.job.JobScheduler;
import android.content.ClipData;
import android.content.ClipboardManager;
import android.os.Bundle;

public class ShareActivity extends Activity {

    private ClipboardManager clipboard;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        clipboard = (ClipboardManager) getSystemService(CLIPBOARD_SERVICE);
    }

    void copyLink(String link) {
        clipboard.setPrimaryClip(ClipData.newPlainText("link", link));
    }

    void cancelAll() {
        DownloadManager downloads = (DownloadManager) getSystemService(CLIPBOARD_SERVICE);
        JobScheduler jobs = (JobScheduler) getSystemService(ALARM_SERVICE);
        jobs.cancelAll();
        downloads.remove(0L);
    }
}
