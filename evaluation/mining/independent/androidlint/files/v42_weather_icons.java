package com.example.weather.ui;

import android.content.res.Resources;
import android.graphics.drawable.Drawable;
import android.widget.ImageView;

public class WeatherIcons {

    private final Resources resources;

    public WeatherIcons(Resources resources) {
        this.resources = resources;
    }

    public void show(ImageView view, String condition) {
        Drawable icon;
        if ("rain".equals(condition)) {
            icon = resources.getDrawable(R.drawable.ic_rain);
        } else if ("snow".equals(condition)) {
            icon = resources.getDrawable(R.drawable.ic_snow);
        } else {
            icon = view.getResources().getDrawable(R.drawable.ic_sun);
        }
        view.setImageDrawable(icon);
        view.setContentDescription(condition);
    }
}
