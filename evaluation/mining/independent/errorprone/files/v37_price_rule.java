package com.shop.pricing;

import com.google.errorprone.annotations.Immutable;
import java.math.BigDecimal;
import java.util.List;

@Immutable
public final class PriceRule {

    private final String name;
    private BigDecimal percent;
    private final List<String> categories;
    private final int[] weekdays;

    public PriceRule(String name, BigDecimal percent, List<String> categories, int[] weekdays) {
        this.name = name;
        this.percent = percent;
        this.categories = categories;
        this.weekdays = weekdays;
    }

    public boolean appliesTo(String category, int weekday) {
        if (!categories.contains(category)) {
            return false;
        }
        for (int day : weekdays) {
            if (day == weekday) {
                return true;
            }
        }
        return false;
    }

    public String name() {
        return name;
    }

    public BigDecimal percent() {
        return percent;
    }
}
