package com.example.settings;

import android.app.Activity;
import android.app.DialogFragment;
import android.app.Fragment;
import android.os.Bundle;

public class SettingsActivity extends Activity {

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        getFragmentManager().beginTransaction()
                .replace(android.R.id.content, new AccountFragment())
                .commit();
    }

    public static class AccountFragment extends Fragment {
        public String title() {
            return getActivity().getIntent().getStringExtra("account");
        }
    }

    public static class ConfirmDeleteDialog extends DialogFragment {
        private static final String ARG_ITEM_ID = "itemId";

        public static ConfirmDeleteDialog forItem(long itemId) {
            Bundle args = new Bundle();
            args.putLong(ARG_ITEM_ID, itemId);
            ConfirmDeleteDialog dialog = new ConfirmDeleteDialog();
            dialog.setArguments(args);
            return dialog;
        }

        public long itemId() {
            return getArguments().getLong(ARG_ITEM_ID);
        }
    }
}
