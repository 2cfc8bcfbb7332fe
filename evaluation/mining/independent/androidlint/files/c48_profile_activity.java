package com.example.profile;

import android.app.Activity;
import android.os.Bundle;
import android.view.View;
import android.widget.Button;
import android.widget.CheckBox;
import android.widget.EditText;
import android.widget.ImageView;

public class ProfileActivity extends Activity {

    private EditText nameField;
    private CheckBox newsletter;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_profile);
        nameField = (EditText) findViewById(R.id.profile_name);
        newsletter = (CheckBox) findViewById(R.id.profile_newsletter);
        Button save = (Button) findViewById(R.id.profile_save);
        save.setOnClickListener(v -> save());
    }

    private void save() {
        ImageView badge = (ImageView) findViewById(R.id.profile_badge);
        badge.setVisibility(newsletter.isChecked() ? View.VISIBLE : View.GONE);
        Button save = (Button) findViewById(R.id.profile_save);
        save.setEnabled(nameField.length() > 0);
    }
}
