package com.example.scanner;

import android.app.Activity;
import android.content.pm.ActivityInfo;
import android.os.Bundle;
import android.view.SurfaceView;

public class ScannerActivity extends Activity {

    private SurfaceView preview;
    private BarcodeAnalyzer analyzer;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setRequestedOrientation(ActivityInfo.SCREEN_ORIENTATION_PORTRAIT);
        preview = new SurfaceView(this);
        setContentView(preview);
        analyzer = new BarcodeAnalyzer(preview.getHolder());
    }

    @Override
    protected void onResume() {
        super.onResume();
        analyzer.start();
    }

    @Override
    protected void onPause() {
        analyzer.stop();
        super.onPause();
    }
}
