package cn.logistics.shipment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;

public class ShipmentDao {

    private final Connection connection;
    private final ZoneId zone;

    public ShipmentDao(Connection connection, ZoneId zone) {
        this.connection = connection;
        this.zone = zone;
    }

    public void markDelivered(long shipmentId, Instant deliveredAt) throws SQLException {
        String sql = "UPDATE shipment SET delivered_at = ?, delivery_day = ? WHERE id = ?";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setObject(1, LocalDateTime.ofInstant(deliveredAt, zone));
            ps.setObject(2, LocalDate.ofInstant(deliveredAt, zone));
            ps.setLong(3, shipmentId);
            ps.executeUpdate();
        }
    }
}
