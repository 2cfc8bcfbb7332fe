package com.paydesk.gateway;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Outbound payment channel.
 */
public interface PaymentChannel {

  /**
   * Charges the card token and returns the channel's transaction id.
   */
  String charge(String cardToken, BigDecimal amount, String currency);

  /**
   * Looks up a previous charge by its id.
   */
  Optional<String> status(String transactionId);

  /**
   * Refunds part or all of a settled charge.
   */
  boolean refund(String transactionId, BigDecimal amount);

  /**
   * Full refund; every channel can express it as a partial refund of the whole amount.
   */
  default boolean refundAll(String transactionId, BigDecimal chargedAmount) {
    return refund(transactionId, chargedAmount);
  }
}
