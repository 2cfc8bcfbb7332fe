package com.example.gallery;

import android.app.Activity;
import android.content.Intent;
import android.net.Uri;

public class ShareIntents {

  private final Activity activity;

  public ShareIntents(Activity activity) {
    this.activity = activity;
  }

  public void openImage(Uri image) {
    Intent view = new Intent(Intent.ACTION_VIEW);
    view.setData(image);
    view.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION);
    view.setType("image/jpeg");
    activity.startActivity(view);
  }

  public void editVideo(Uri video, String mimeType) {
    Intent edit = new Intent(Intent.ACTION_EDIT);
    edit.setType(mimeType);
    edit.setData(video);
    activity.startActivity(Intent.createChooser(edit, null));
  }
}
