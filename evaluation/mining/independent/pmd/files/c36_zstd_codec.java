package org.dataflow.codec;

import java.io.ByteArrayOutputStream;
import java.util.zip.Deflater;

public final class DeflateCodec {

    public byte[] compress(byte[] input, int level) {
        Deflater deflater = new Deflater(Math.max(1, Math.min(level, 9)));
        try {
            deflater.setInput(input);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 16);
            byte[] buffer = new byte[4096];
            while (!deflater.finished()) {
                int written = deflater.deflate(buffer);
                out.write(buffer, 0, written);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    public String libraryName() {
        return System.getProperty("java.vm.name");
    }
}
