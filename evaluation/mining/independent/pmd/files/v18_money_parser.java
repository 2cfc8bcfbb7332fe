package com.acme.money;

import java.math.BigDecimal;
import java.util.Currency;

public final class MoneyParser {

  private final Currency defaultCurrency;

  public MoneyParser(String currencyCode) throws IllegalArgumentException {
    this.defaultCurrency = Currency.getInstance(currencyCode);
  }

  public BigDecimal amount(String text) throws NumberFormatException, NullPointerException {
    String cleaned = text.replace(",", "").trim();
    return new BigDecimal(cleaned);
  }

  public Currency currency(String text) throws IllegalStateException {
    int space = text.indexOf(' ');
    return space < 0 ? defaultCurrency : Currency.getInstance(text.substring(space + 1));
  }
}
