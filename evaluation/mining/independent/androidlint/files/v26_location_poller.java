package com.example.tracker;

import io.reactivex.Observable;
import io.reactivex.disposables.Disposable;
import java.util.concurrent.TimeUnit;

public class LocationPoller {

    private final LocationSource source;
    private Disposable polling;

    public LocationPoller(LocationSource source) {
        this.source = source;
    }

    public void start(LocationListener listener) {
        polling = Observable.interval(15, TimeUnit.SECONDS)
                .flatMapSingle(tick -> source.current()
                        .timeout(5, TimeUnit.SECONDS))
                .subscribe(listener::onLocation, listener::onError);
    }

    public Observable<String> searches(Observable<String> typed) {
        return typed.debounce(300, TimeUnit.MILLISECONDS);
    }

    public void stop() {
        if (polling != null) {
            polling.dispose();
        }
    }
}
