package com.example.help;

import android.annotation.SuppressLint;
import android.app.Activity;
import android.os.Bundle;
import android.webkit.JavascriptInterface;
import android.webkit.WebView;

public class HelpActivity extends Activity {

    @SuppressLint("SetJavaScriptEnabled")
    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        WebView web = new WebView(this);
        web.getSettings().setJavaScriptEnabled(true);
        web.addJavascriptInterface(new HelpBridge(), "helpBridge");
        web.loadUrl("file:///android_asset/help/index.html");
        setContentView(web);
    }

    final class HelpBridge {
        @JavascriptInterface
        public String appVersion() {
            return "4.2.0";
        }

        public void close() {
            finish();
        }

        public void openTopic(String topic) {
            setTitle(topic);
        }
    }
}
