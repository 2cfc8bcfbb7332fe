package analytics.jobs;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

public class RegionReportJob {

    private final Connection connection;

    public RegionReportJob(Connection connection) {
        this.connection = connection;
    }

    public long revenue() throws SQLException {
        String region = System.getenv("REPORT_REGION");
        String sql = "SELECT SUM(amount) FROM sales WHERE region = '" + region + "'";
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : 0L;
        }
    }
}
