package analytics.jobs;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

public class ArchivePurgeJob {

    public static void main(String[] args) throws SQLException {
        String cutoff = args.length > 0 ? args[0] : "2020-01-01";
        try (Connection connection = DriverManager.getConnection(System.getenv("ARCHIVE_DB_URL"));
             PreparedStatement purge = connection.prepareStatement(
                     "DELETE FROM archived_events WHERE created_at < CAST(? AS DATE)")) {
            purge.setString(1, cutoff);
            int removed = purge.executeUpdate();
            System.out.println("removed " + removed + " archived events before " + cutoff);
        }
    }
}
