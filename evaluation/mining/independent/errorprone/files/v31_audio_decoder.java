package org.media.codec;

public class AudioDecoder {

    private long decoderPtr;

    private static native long nativeOpen(int sampleRate, int channels);

    private static native int nativeDecode(long decoderPtr, byte[] input, short[] output);

    private static native void nativeClose(long decoderPtr);

    public AudioDecoder(int sampleRate, int channels) {
        decoderPtr = nativeOpen(sampleRate, channels);
    }

    public int decode(byte[] packet, short[] pcm) {
        return nativeDecode(decoderPtr, packet, pcm);
    }

    @Override
    protected void finalize() throws Throwable {
        try {
            nativeClose(decoderPtr);
            decoderPtr = 0;
        } finally {
            super.finalize();
        }
    }
}
