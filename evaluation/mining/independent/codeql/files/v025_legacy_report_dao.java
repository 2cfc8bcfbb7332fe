package reports.legacy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

public class LegacyReportDao {

    private static final String URL = "jdbc:postgresql://reports-db:5432/warehouse";

    public int countShipments(String depot) throws SQLException {
        try (Connection conn = DriverManager.getConnection(URL, "report_ro", "Wint3r-Harbour-77");
             PreparedStatement ps = conn.prepareStatement(
                     "SELECT COUNT(*) FROM shipments WHERE depot = ?")) {
            ps.setString(1, depot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }
}
