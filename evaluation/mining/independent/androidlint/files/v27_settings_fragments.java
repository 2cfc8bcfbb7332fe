package com.example.settings;

import android.app.Activity;
import android.app.DialogFragment;
import android.app.Fragment;
import android.os.Bundle;

public class SettingsActivity extends Activity {

    private String accountName;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        accountName = getIntent().getStringExtra("account");
        getFragmentManager().beginTransaction()
                .replace(android.R.id.content, new AccountFragment())
                .commit();
    }

    public class AccountFragment extends Fragment {
        public String title() {
            return accountName;
        }
    }

    public static class ConfirmDeleteDialog extends DialogFragment {
        private final long itemId;

        public ConfirmDeleteDialog(long itemId) {
            this.itemId = itemId;
        }

        public long itemId() {
            return itemId;
        }
    }
}
