package com.example.weather.ui;

import android.content.Context;
import android.graphics.drawable.Drawable;
import android.widget.ImageView;
import androidx.core.content.ContextCompat;

public class WeatherIcons {

    private final Context context;

    public WeatherIcons(Context context) {
        this.context = context;
    }

    public void show(ImageView view, String condition) {
        if ("sun".equals(condition)) {
            view.setImageResource(R.drawable.ic_sun);
        } else {
            Drawable icon = ContextCompat.getDrawable(context,
                    "rain".equals(condition) ? R.drawable.ic_rain : R.drawable.ic_snow);
            view.setImageDrawable(icon);
        }
        view.setContentDescription(condition);
    }
}
