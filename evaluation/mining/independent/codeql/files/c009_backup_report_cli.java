package ops.backup;

import java.io.File;

public class BackupReportCli {

    public static void main(String[] args) {
        String host = System.getenv("BACKUP_HOST");
        File dir = new File(args.length > 0 ? args[0] : "/var/backups");
        File[] dumps = dir.listFiles((d, name) -> name.endsWith(".dump"));
        int count = dumps == null ? 0 : dumps.length;
        long bytes = 0;
        if (dumps != null) {
            for (File dump : dumps) {
                bytes += dump.length();
            }
        }
        System.out.printf("host %s: %d dump(s), %,d bytes in %s%n", host, count, bytes, dir);
        System.out.println(String.format("checked at %tT", System.currentTimeMillis()));
    }
}
