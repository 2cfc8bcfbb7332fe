package com.example.images;

import android.graphics.Bitmap;
import android.util.LruCache;

public class ImageCache {

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
        // TODO: fall back to the disk cache when the memory cache misses
        return memory.get(url);
    }

    public void put(String url, Bitmap bitmap) {
        memory.put(url, bitmap); // todo evict on low memory
    }

    public void clear() {
        memory.evictAll();
    }
}
