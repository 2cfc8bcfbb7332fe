package net.ledgerline.ops;

import java.io.File;
import java.io.IOException;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;

public final class NightlyDatabaseBackup {

    private final File targetDir;
    private final String database;

    public NightlyDatabaseBackup(File targetDir, String database) {
        this.targetDir = targetDir;
        this.database = database;
    }

    public File run() throws IOException, InterruptedException {
        File dump = new File(targetDir, database + "-" + LocalDate.now() + ".dump");
        String[] command = {"pg_dump", "--format=custom", "--file=" + dump.getPath(), database};
        Process process = Runtime.getRuntime().exec(command);
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException("backup of " + database + " timed out");
        }
        if (process.exitValue() != 0) {
            throw new IOException("pg_dump exited with " + process.exitValue());
        }
        return dump;
    }
}
