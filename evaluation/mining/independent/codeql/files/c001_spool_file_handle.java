package org.printhub.spool;

import java.io.File;
import java.util.logging.Logger;

public class SpoolFileHandle extends TrackedHandle {

    private static final Logger LOG = Logger.getLogger(SpoolFileHandle.class.getName());

    private final File spoolFile;
    private boolean deleted;

    public SpoolFileHandle(File spoolFile) {
        super(spoolFile.getName());
        this.spoolFile = spoolFile;
    }

    public File file() {
        return spoolFile;
    }

    public synchronized void discard() {
        if (!deleted) {
            deleted = spoolFile.delete();
        }
    }

    @Override
    protected void finalize() throws Throwable {
        try {
            if (!deleted) {
                LOG.fine("spool file left behind, removing " + spoolFile);
                discard();
            }
        } finally {
            super.finalize();
        }
    }
}
