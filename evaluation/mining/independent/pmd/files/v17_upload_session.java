package io.storage.upload;

import java.io.IOException;
import java.io.OutputStream;

public class UploadSession {

    private final OutputStream target;
    private boolean committed;

    public UploadSession(OutputStream target) {
        this.target = target;
    }

    public void upload(byte[] data, int chunkSize) throws IOException {
        try {
            for (int offset = 0; offset < data.length; offset += chunkSize) {
                target.write(data, offset, Math.min(chunkSize, data.length - offset));
            }
            target.flush();
            committed = true;
        } finally {
            target.close();
            if (!committed) {
                throw new IOException("upload aborted before commit");
            }
        }
    }
}
