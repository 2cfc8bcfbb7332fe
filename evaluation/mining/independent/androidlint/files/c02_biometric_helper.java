package com.example.wallet.security;

import android.content.Context;
import android.hardware.biometrics.BiometricManager;
import android.os.Build;
import androidx.annotation.RequiresApi;

@RequiresApi(Build.VERSION_CODES.Q)
public class BiometricHelper {

    private final Context context;

    public BiometricHelper(Context context) {
        this.context = context;
    }

    public boolean canAuthenticate() {
        BiometricManager manager = context.getSystemService(BiometricManager.class);
        return manager.canAuthenticate() == BiometricManager.BIOMETRIC_SUCCESS;
    }

    @RequiresApi(Build.VERSION_CODES.R)
    public boolean canUseStrongBiometrics() {
        BiometricManager manager = context.getSystemService(BiometricManager.class);
        return manager.canAuthenticate(BiometricManager.Authenticators.BIOMETRIC_STRONG)
                == BiometricManager.BIOMETRIC_SUCCESS;
    }

    public static boolean supported() {
        return Build.VERSION.SDK_INT >= Build.VERSION_CODES.Q;
    }
}
