package com.example.shop.analytics;

import timber.log.Timber;

public class CheckoutTracker {

    private static final String TAG = "CheckoutFunnel";

    private int steps;

    public void stepCompleted(String step) {
        steps++;
        Timber.tag(TAG).d("step %s completed (%d so far)", step, steps);
    }

    public void abandoned(String step, Throwable cause) {
        Timber.tag("CheckoutAbandon").w(cause, "CheckoutAbandonmentReporter: abandoned at %s", step);
        steps = 0;
    }
}
