package com.example.tracker;

import io.reactivex.Observable;
import io.reactivex.Scheduler;
import io.reactivex.disposables.Disposable;
import java.util.concurrent.TimeUnit;

public class LocationPoller {

    private final LocationSource source;
    private final Scheduler timing;
    private Disposable polling;

    public LocationPoller(LocationSource source, Scheduler timing) {
        this.source = source;
        this.timing = timing;
    }

    public void start(LocationListener listener) {
        polling = Observable.interval(15, TimeUnit.SECONDS, timing)
                .flatMapSingle(tick -> source.current()
                        .timeout(5, TimeUnit.SECONDS, timing))
                .subscribe(listener::onLocation, listener::onError);
    }

    public Observable<String> searches(Observable<String> typed) {
        return typed.debounce(300, TimeUnit.MILLISECONDS, timing);
    }

    public void stop() {
        if (polling != null) {
            polling.dispose();
        }
    }
}
