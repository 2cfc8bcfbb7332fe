package com.crm.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

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
                if (!rows.next()) {
                    return null;
                }
                return rows.getBoolean("opted_in") ? rows.getString("email") : null;
            }
        }
    }

    public List<String> allEmails() throws SQLException {
        List<String> emails = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT email FROM customer");
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                emails.add(rows.getString(1));
            }
        }
        return emails;
    }
}
