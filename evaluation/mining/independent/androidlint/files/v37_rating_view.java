package com.example.reviews.widget;

import android.content.Context;
import android.graphics.Canvas;
import android.graphics.Paint;
import android.view.View;

public class RatingBarView extends View {

    private final Paint paint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private final int maxStars;
    private float rating;

    public RatingBarView(Context context, int maxStars) {
        super(context);
        this.maxStars = maxStars;
    }

    public void setRating(float rating) {
        this.rating = Math.max(0, Math.min(maxStars, rating));
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
