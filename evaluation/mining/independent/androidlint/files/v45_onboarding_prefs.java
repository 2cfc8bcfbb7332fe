package com.example.onboarding;

import android.content.Context;
import android.content.SharedPreferences;

public class OnboardingPrefs {

  private static final String FILE = "onboarding";

  private final SharedPreferences prefs;

  public OnboardingPrefs(Context context) {
    prefs = context.getSharedPreferences(FILE, Context.MODE_PRIVATE);
  }

  public void markStepDone(String step) {
    SharedPreferences.Editor editor = prefs.edit();
    editor.putBoolean("done_" + step, true);
    editor.putLong("last_step_at", System.currentTimeMillis());
  }

  public void reset() {
    prefs.edit().clear();
  }

  public boolean isDone(String step) {
    return prefs.getBoolean("done_" + step, false);
  }
}
