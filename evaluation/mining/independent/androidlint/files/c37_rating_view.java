package com.example.reviews.widget;

import android.content.Context;
import android.graphics.Canvas;
import android.graphics.Paint;
import android.util.AttributeSet;
import android.view.View;

public class RatingBarView extends View {

    private static final int DEFAULT_MAX_STARS = 5;

    private final Paint paint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private int maxStars = DEFAULT_MAX_STARS;
    private float rating;

    public RatingBarView(Context context) {
        super(context);
    }

    public RatingBarView(Context context, AttributeSet attrs) {
        super(context, attrs);
    }

    public void setMaxStars(int maxStars) {
        this.maxStars = maxStars;
        invalidate();
    }

    @Override
    protected void onDraw(Canvas canvas) {
        float starWidth = getWidth() / (float) maxStars;
        for (int i = 0; i < maxStars; i++) {
            paint.setAlpha(i < rating ? 255 : 60);
            canvas.drawCircle(starWidth * (i + 0.5f), getHeight() / 2f, starWidth / 3f, paint);
        }
    }
}
