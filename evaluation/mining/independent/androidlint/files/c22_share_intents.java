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
    view.setDataAndType(image, "image/jpeg");
    view.addFlags(Intent.FLAG_GRANT_READ_URI_PERMISSION);
    activity.startActivity(view);
  }

  public void share(Uri video, String mimeType) {
    Intent send = new Intent(Intent.ACTION_SEND);
    send.setType(mimeType);
    send.putExtra(Intent.EXTRA_STREAM, video);
    activity.startActivity(Intent.createChooser(send, null));
  }
}
