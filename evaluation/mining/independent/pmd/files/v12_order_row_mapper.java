package com.shop.persistence;

import java.sql.ResultSet;
import java.sql.SQLException;

public class OrderRowMapper {

    public OrderRecord map(ResultSet rs) throws SQLException {
        OrderRecord r = new OrderRecord();
        r.setId(rs.getLong("id"));
        r.setNumber(rs.getString("number"));
        r.setCustomerId(rs.getLong("customer_id"));
        r.setCustomerName(rs.getString("customer_name"));
        r.setCustomerEmail(rs.getString("customer_email"));
        r.setCustomerPhone(rs.getString("customer_phone"));
        r.setBillingStreet(rs.getString("billing_street"));
        r.setBillingCity(rs.getString("billing_city"));
        r.setBillingZip(rs.getString("billing_zip"));
        r.setBillingCountry(rs.getString("billing_country"));
        r.setShippingStreet(rs.getString("shipping_street"));
        r.setShippingCity(rs.getString("shipping_city"));
        r.setShippingZip(rs.getString("shipping_zip"));
        r.setShippingCountry(rs.getString("shipping_country"));
        r.setCurrency(rs.getString("currency"));
        r.setSubtotal(rs.getBigDecimal("subtotal"));
        r.setTax(rs.getBigDecimal("tax"));
        r.setShippingFee(rs.getBigDecimal("shipping_fee"));
        r.setDiscount(rs.getBigDecimal("discount"));
        r.setTotal(rs.getBigDecimal("total"));
        r.setPaymentMethod(rs.getString("payment_method"));
        r.setPaymentStatus(rs.getString("payment_status"));
        r.setPaymentReference(rs.getString("payment_reference"));
        r.setPaidAt(rs.getTimestamp("paid_at"));
        r.setCreatedAt(rs.getTimestamp("created_at"));
        r.setUpdatedAt(rs.getTimestamp("updated_at"));
        r.setShippedAt(rs.getTimestamp("shipped_at"));
        r.setDeliveredAt(rs.getTimestamp("delivered_at"));
        r.setCancelledAt(rs.getTimestamp("cancelled_at"));
        r.setCarrier(rs.getString("carrier"));
        r.setTrackingNumber(rs.getString("tracking_number"));
        r.setWarehouse(rs.getString("warehouse"));
        r.setChannel(rs.getString("channel"));
        r.setCouponCode(rs.getString("coupon_code"));
        r.setGiftWrap(rs.getBoolean("gift_wrap"));
        r.setGiftMessage(rs.getString("gift_message"));
        r.setNotes(rs.getString("notes"));
        r.setPriority(rs.getInt("priority"));
        r.setItemCount(rs.getInt("item_count"));
        r.setWeightGrams(rs.getInt("weight_grams"));
        r.setLocale(rs.getString("locale"));
        r.setIpAddress(rs.getString("ip_address"));
        r.setUserAgent(rs.getString("user_agent"));
        r.setAffiliateId(rs.getString("affiliate_id"));
        r.setSalesRep(rs.getString("sales_rep"));
        r.setInvoiceNumber(rs.getString("invoice_number"));
        r.setRefundedAmount(rs.getBigDecimal("refunded_amount"));
        r.setReturnReason(rs.getString("return_reason"));
        r.setFraudScore(rs.getInt("fraud_score"));
        r.setReviewedBy(rs.getString("reviewed_by"));
        r.setExternalId(rs.getString("external_id"));
        r.setMarketplace(rs.getString("marketplace"));
        r.setTaxExempt(rs.getBoolean("tax_exempt"));
        r.setVatNumber(rs.getString("vat_number"));
        r.setCompanyName(rs.getString("company_name"));
        r.setLoyaltyPoints(rs.getInt("loyalty_points"));
        r.setSource(rs.getString("source"));
        r.setVersion(rs.getInt("version"));
        if (rs.wasNull()) {
            r.setVersion(0);
        }
        r.setArchived(rs.getBoolean("archived"));
        r.setDeleted(rs.getBoolean("deleted"));
        return r;
    }
}
