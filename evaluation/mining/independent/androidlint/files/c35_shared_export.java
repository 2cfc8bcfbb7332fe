package com.example.exports;

import android.content.Context;
import android.content.SharedPreferences;
import android.net.Uri;
import androidx.core.content.FileProvider;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

public class SharedExport {

  private final Context context;

  public SharedExport(Context context) {
    this.context = context;
  }

  public Uri writeForOtherApps(String name, byte[] data) throws IOException {
    File file = new File(context.getFilesDir(), name);
    try (FileOutputStream out = new FileOutputStream(file)) {
      out.write(data);
    }
    file.setWritable(true, true);
    return FileProvider.getUriForFile(context, context.getPackageName() + ".exports", file);
  }

  public SharedPreferences settings() {
    return context.getSharedPreferences("settings", Context.MODE_PRIVATE);
  }
}
