package com.acme.imaging.memory;

import java.util.concurrent.atomic.AtomicLong;

/** A pixel buffer backed by a handle in the native codec library. */
public class NativeImageBuffer extends PooledBuffer {

    private static final AtomicLong LIVE_HANDLES = new AtomicLong();

    private final long handle;
    private final int width;
    private final int height;

    public NativeImageBuffer(int width, int height) {
        super(width * height * 4);
        this.width = width;
        this.height = height;
        this.handle = CodecBridge.allocate(width, height);
        LIVE_HANDLES.incrementAndGet();
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public static long liveHandles() {
        return LIVE_HANDLES.get();
    }

    @Override
    protected void finalize() throws Throwable {
        if (handle != 0L) {
            CodecBridge.release(handle);
            LIVE_HANDLES.decrementAndGet();
        }
    }
}
