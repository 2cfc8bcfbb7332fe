package com.example.downloads;

import android.app.Service;
import android.content.Intent;
import android.os.IBinder;
import android.os.PowerManager;

public class DownloadService extends Service {

    private PowerManager.WakeLock cpuLock;
    private PowerManager.WakeLock screenLock;

    @Override
    public void onCreate() {
        super.onCreate();
        PowerManager power = (PowerManager) getSystemService(POWER_SERVICE);
        cpuLock = power.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, DownloadService.class.getSimpleName());
        screenLock = power.newWakeLock(PowerManager.SCREEN_DIM_WAKE_LOCK, "");
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        cpuLock.acquire(10 * 60 * 1000L);
        return START_NOT_STICKY;
    }

    @Override
    public void onDestroy() {
        cpuLock.release();
        super.onDestroy();
    }

    @Override
    public IBinder onBind(Intent intent) {
        return null;
    }
}
