package com.example.feed;

import io.reactivex.rxjava3.android.schedulers.AndroidSchedulers;
import io.reactivex.rxjava3.disposables.CompositeDisposable;
import io.reactivex.rxjava3.schedulers.Schedulers;

public class FeedPresenter {

    private final FeedApi api;
    private final FeedView view;
    private final CompositeDisposable subscriptions = new CompositeDisposable();

    public FeedPresenter(FeedApi api, FeedView view) {
        this.api = api;
        this.view = view;
    }

    public void load(String topic) {
        subscriptions.add(api.articles(topic)
                .subscribeOn(Schedulers.io())
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(view::show, view::showError));
    }

    public void detach() {
        subscriptions.clear();
    }
}
