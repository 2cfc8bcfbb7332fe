package com.example.tasks.ui;

import android.content.Context;
import android.content.res.Resources;
import android.widget.TextView;

public class StatusBadge {

    private final Resources resources;

    public StatusBadge(Context context) {
        this.resources = context.getResources();
    }

    public void bind(TextView view, TaskStatus status) {
        view.setText(status.label());
        switch (status) {
            case DONE:
                view.setTextColor(resources.getColor(R.color.status_done));
                break;
            case LATE:
                view.setTextColor(view.getContext().getResources().getColor(R.color.status_late));
                break;
            default:
                view.setTextColor(resources.getColor(R.color.status_open));
        }
    }
}
