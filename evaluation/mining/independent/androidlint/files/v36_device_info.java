package com.example.diagnostics;

import java.lang.reflect.Method;

public final class DeviceInfo {

    private DeviceInfo() {
    }

    public static String buildFingerprintProp() {
        try {
            Class<?> props = Class.forName("android.os.SystemProperties");
            Method get = props.getMethod("get", String.class, String.class);
            return (String) get.invoke(null, "ro.build.fingerprint", "unknown");
        } catch (ReflectiveOperationException e) {
            return "unknown";
        }
    }

    public static boolean hasLockPattern(ClassLoader loader) {
        try {
            Class<?> utils = loader.loadClass("com.android.internal.widget.LockPatternUtils");
            return utils.getDeclaredMethods().length > 0;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
