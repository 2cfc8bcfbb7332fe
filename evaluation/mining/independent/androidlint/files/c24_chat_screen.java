package com.example.chat;

import io.reactivex.android.schedulers.AndroidSchedulers;
import io.reactivex.disposables.CompositeDisposable;
import java.util.ArrayList;
import java.util.List;

public class ChatScreen {

    private final CompositeDisposable disposables = new CompositeDisposable();
    private final List<String> joinedRooms = new ArrayList<>();
    private final ChatRepository repository;
    private final ChatView view;

    public ChatScreen(ChatRepository repository, ChatView view) {
        this.repository = repository;
        this.view = view;
    }

    public void start(String roomId, List<String> linkedRooms) {
        disposables.add(repository.messages(roomId)
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(view::append));
        disposables.add(repository.typing(roomId)
                .observeOn(AndroidSchedulers.mainThread())
                .subscribe(view::showTyping));
        joinedRooms.add(roomId);
        joinedRooms.addAll(linkedRooms);
    }

    public void stop() {
        disposables.clear();
    }
}
