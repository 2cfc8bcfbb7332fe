package com.acme.money;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.Currency;

public final class MoneyParser {

  private final Currency defaultCurrency;

  /**
   * @throws IllegalArgumentException if the code is not an ISO 4217 currency
   */
  public MoneyParser(String currencyCode) {
    this.defaultCurrency = Currency.getInstance(currencyCode);
  }

  /**
   * @throws NumberFormatException if the text is not a decimal amount
   */
  public BigDecimal amount(String text) {
    return new BigDecimal(text.replace(",", "").trim());
  }

  public BigDecimal firstAmount(Reader source) throws IOException {
    StringBuilder digits = new StringBuilder();
    for (int c = source.read(); c >= 0 && c != '\n'; c = source.read()) {
      digits.append((char) c);
    }
    return amount(digits.toString());
  }

  public Currency defaultCurrency() {
    return defaultCurrency;
  }
}
