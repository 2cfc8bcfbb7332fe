package com.shop.pricing;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.errorprone.annotations.Immutable;
import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.util.List;

@Immutable
public final class PriceRule {

    private final String name;
    private final BigDecimal percent;
    private final ImmutableList<String> categories;
    private final ImmutableSet<DayOfWeek> weekdays;

    public PriceRule(String name, BigDecimal percent, List<String> categories, ImmutableSet<DayOfWeek> weekdays) {
        this.name = name;
        this.percent = percent;
        this.categories = ImmutableList.copyOf(categories);
        this.weekdays = weekdays;
    }

    public boolean appliesTo(String category, DayOfWeek weekday) {
        return categories.contains(category) && weekdays.contains(weekday);
    }

    public String name() {
        return name;
    }

    public BigDecimal percent() {
        return percent;
    }
}
