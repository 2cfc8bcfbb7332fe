package com.example.shop.analytics;

import timber.log.Timber;

public class CheckoutTracker {

    private static final String TAG = "CheckoutFunnelAnalyticsTracker";

    private int steps;

    public void stepCompleted(String step) {
        steps++;
        Timber.tag(TAG).d("step %s completed (%d so far)", step, steps);
    }

    public void abandoned(String step, Throwable cause) {
        Timber.tag("CheckoutAbandonmentReporter").w(cause, "abandoned at %s", step);
        steps = 0;
    }

    public int steps() {
        return steps;
    }
}
