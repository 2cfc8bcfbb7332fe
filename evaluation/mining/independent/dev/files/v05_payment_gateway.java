package com.paydesk.gateway;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * Outbound payment channel.
 */
public interface PaymentChannel {

  public static final int DEFAULT_TIMEOUT_SECONDS = 30;

  /**
   * Charges the card token and returns the channel's transaction id.
   */
  public abstract String charge(String cardToken, BigDecimal amount, String currency);

  /**
   * Looks up a previous charge by its id.
   */
  public Optional<ChargeStatus> status(String transactionId);

  /**
   * Refunds part or all of a settled charge.
   */
  boolean refund(String transactionId, BigDecimal amount);

  enum ChargeStatus {
    PENDING, SETTLED, FAILED
  }
}
