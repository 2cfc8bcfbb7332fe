package cn.logistics.shipment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;

public class ShipmentDao {

    private final Connection connection;

    public ShipmentDao(Connection connection) {
        this.connection = connection;
    }

    public void markDelivered(long shipmentId, long deliveredAtMillis) throws SQLException {
        String sql = "UPDATE shipment SET delivered_at = ?, delivery_day = ? WHERE id = ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setTimestamp(1, new Timestamp(deliveredAtMillis));
            ps.setDate(2, new java.sql.Date(deliveredAtMillis));
            ps.setLong(3, shipmentId);
            ps.executeUpdate();
        }
    }
}
