package com.example.wallet.security;

import android.annotation.TargetApi;
import android.content.Context;
import android.hardware.biometrics.BiometricManager;
import android.os.Build;

@TargetApi(Build.VERSION_CODES.Q)
public class BiometricHelper {

    private final Context context;

    public BiometricHelper(Context context) {
        this.context = context;
    }

    public boolean canAuthenticate() {
        BiometricManager manager = context.getSystemService(BiometricManager.class);
        return manager.canAuthenticate() == BiometricManager.BIOMETRIC_SUCCESS;
    }

    @TargetApi(30)
    public boolean canUseStrongBiometrics() {
        BiometricManager manager = context.getSystemService(BiometricManager.class);
        return manager.canAuthenticate(BiometricManager.Authenticators.BIOMETRIC_STRONG)
                == BiometricManager.BIOMETRIC_SUCCESS;
    }
}
