package com.example.files.ui;

import android.app.AlertDialog;
import android.app.Dialog;
import android.os.Bundle;
import android.view.View;
import android.widget.EditText;
import androidx.annotation.NonNull;
import androidx.fragment.app.DialogFragment;

public class RenameDialog extends DialogFragment {

    @NonNull
    @Override
    public Dialog onCreateDialog(Bundle savedInstanceState) {
        View content = getLayoutInflater().inflate(R.layout.dialog_rename, null);
        EditText name = content.findViewById(R.id.name);
        name.setText(requireArguments().getString("current"));
        return new AlertDialog.Builder(requireContext())
                .setTitle(R.string.rename)
                .setView(content)
                .setPositiveButton(android.R.string.ok, (dialog, which) -> onRename(name.getText().toString()))
                .create();
    }

    private void onRename(String newName) {
        Bundle result = new Bundle();
        result.putString("name", newName);
        getParentFragmentManager().setFragmentResult("rename", result);
    }
}
