package com.example.exports;

import android.content.Context;
import android.content.SharedPreferences;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

public class SharedExport {

  private final Context context;

  public SharedExport(Context context) {
    this.context = context;
  }

  public File writeForOtherApps(String name, byte[] data) throws IOException {
    File file = new File(context.getFilesDir(), name);
    try (FileOutputStream out = new FileOutputStream(file)) {
      out.write(data);
    }
    file.setReadable(true, false);
    file.setWritable(true, false);
    return file;
  }

  @SuppressWarnings("deprecation")
  public SharedPreferences sharedSettings() {
    return context.getSharedPreferences("shared_settings", Context.MODE_WORLD_WRITEABLE);
  }
}
