package org.imaging.nativeio;

public class NativeImageBuffer implements AutoCloseable {

    private long handle;
    private final int width;
    private final int height;

    public NativeImageBuffer(int width, int height) {
        this.width = width;
        this.height = height;
        this.handle = NativeBridge.allocate(width * height * 4L);
    }

    public int pixelCount() {
        return width * height;
    }

    @Override
    public void close() {
        if (handle != 0) {
            NativeBridge.free(handle);
            handle = 0;
        }
    }

    @Override
    protected void finalize() throws Throwable {
        if (handle != 0) {
            System.err.println("image buffer leaked, freeing in finalizer");
            close();
        }
    }
}
