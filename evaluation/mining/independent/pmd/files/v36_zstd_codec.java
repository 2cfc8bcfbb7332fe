package org.dataflow.codec;

import java.nio.file.Path;

public final class ZstdCodec {

    private static boolean loaded;

    static {
        System.loadLibrary("zstd-jni");
        loaded = true;
    }

    public static void loadFrom(Path library) {
        System.load(library.toAbsolutePath().toString());
        loaded = true;
    }

    public byte[] compress(byte[] input, int level) {
        if (!loaded) {
            throw new IllegalStateException("codec not loaded");
        }
        return compressNative(input, Math.max(1, Math.min(level, 19)));
    }

    private static native byte[] compressNative(byte[] input, int level);
}
