package com.example.diagnostics;

import android.os.Build;

public final class DeviceInfo {

    private DeviceInfo() {
    }

    public static String buildFingerprint() {
        return Build.FINGERPRINT;
    }

    public static String model() {
        return Build.MANUFACTURER + " " + Build.MODEL;
    }

    public static boolean hasFlavorClass(ClassLoader loader) {
        try {
            loader.loadClass("com.example.diagnostics.flavor.ProFeatures");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
