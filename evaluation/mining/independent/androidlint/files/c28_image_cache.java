package com.example.images;

import android.graphics.Bitmap;
import android.util.LruCache;

public class ImageCache {

    private static final String DEFAULT_LIST = "todo-list-icons";

    private final LruCache<String, Bitmap> memory;

    public ImageCache(int maxBytes) {
        memory = new LruCache<String, Bitmap>(maxBytes) {
            @Override
            protected int sizeOf(String key, Bitmap value) {
                return value.getByteCount();
            }
        };
    }

    public Bitmap get(String url) {
        // the disk cache is consulted by the loader, not here, so misses stay cheap
        return memory.get(url);
    }

    public void put(String url, Bitmap bitmap) {
        memory.put(url, bitmap);
    }

    public String defaultList() {
        return DEFAULT_LIST;
    }
}
