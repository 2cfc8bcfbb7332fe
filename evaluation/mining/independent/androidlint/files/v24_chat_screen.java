package com.example.chat;

import io.reactivex.android.schedulers.AndroidSchedulers;
import io.reactivex.disposables.CompositeDisposable;
import io.reactivex.disposables.Disposable;

public class ChatScreen {

    private final CompositeDisposable disposables = new CompositeDisposable();
    private final ChatRepository repository;
    private final ChatView view;

    public ChatScreen(ChatRepository repository, ChatView view) {
        this.repository = repository;
        this.view = view;
    }

    public void start(String roomId) {
        Disposable messages = repository.messages(roomId)
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(view::append);
        Disposable typing = repository.typing(roomId)
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(view::showTyping);
        disposables.addAll(messages, typing);
    }

    public void stop() {
        disposables.clear();
    }
}
