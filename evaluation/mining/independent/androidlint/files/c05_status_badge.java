package com.example.tasks.ui;

import android.content.Context;
import android.widget.TextView;
import androidx.core.content.ContextCompat;

public class StatusBadge {

    private final Context context;

    public StatusBadge(Context context) {
        this.context = context;
    }

    public void bind(TextView view, TaskStatus status) {
        view.setText(status.label());
        switch (status) {
            case DONE:
                view.setTextColor(ContextCompat.getColor(context, R.color.status_done));
                break;
            case LATE:
                view.setTextColor(context.getResources().getColor(R.color.status_late, context.getTheme()));
                break;
            default:
                view.setTextColor(ContextCompat.getColor(context, R.color.status_open));
        }
    }
}
