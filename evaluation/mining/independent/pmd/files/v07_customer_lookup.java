package com.crm.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

public class CustomerLookup {

    private final Connection connection;

    public CustomerLookup(Connection connection) {
        this.connection = connection;
    }

    public String emailOf(long customerId) throws SQLException {
        String sql = "SELECT email, opted_in FROM customer WHERE id = ?";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, customerId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                boolean optedIn = rows.getBoolean("opted_in");
                return optedIn ? rows.getString("email") : null;
            }
        }
    }

    public int countActive() throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM customer");
             ResultSet rows = statement.executeQuery()) {
            rows.first();
            return rows.getInt(1);
        }
    }
}
