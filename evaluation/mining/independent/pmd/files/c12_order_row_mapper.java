package com.shop.persistence;

import java.sql.ResultSet;
import java.sql.SQLException;

public class CustomerRowMapper {

    public CustomerRecord map(ResultSet rs) throws SQLException {
        CustomerRecord record = new CustomerRecord();
        record.setId(rs.getLong("id"));
        record.setName(rs.getString("name"));
        record.setEmail(rs.getString("email"));
        record.setPhone(rs.getString("phone"));
        mapAddress(rs, record);
        mapPreferences(rs, record);
        return record;
    }

    private void mapAddress(ResultSet rs, CustomerRecord record) throws SQLException {
        record.setStreet(rs.getString("street"));
        record.setCity(rs.getString("city"));
        record.setZip(rs.getString("zip"));
        record.setCountry(rs.getString("country"));
    }

    private void mapPreferences(ResultSet rs, CustomerRecord record) throws SQLException {
        record.setLocale(rs.getString("locale"));
        record.setCurrency(rs.getString("currency"));
        record.setNewsletter(rs.getBoolean("newsletter"));
        record.setSmsOptIn(rs.getBoolean("sms_opt_in"));
        record.setLoyaltyPoints(rs.getInt("loyalty_points"));
        if (rs.wasNull()) {
            record.setLoyaltyPoints(0);
        }
    }
}
