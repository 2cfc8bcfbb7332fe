package com.example.podcast.ui;

import android.app.Activity;
import android.media.MediaPlayer;
import android.os.Bundle;

public class PlayerActivity extends Activity {

    private MediaPlayer player;
    private boolean resumeOnReturn;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        player = new MediaPlayer();
    }

    @Override
    protected void onPause() {
        super.onPause();
        resumeOnReturn = player.isPlaying();
        player.pause();
    }

    @Override
    protected void onDestroy() {
        player.release();
        player = null;
    }

    public boolean shouldResume() {
        return resumeOnReturn;
    }
}
