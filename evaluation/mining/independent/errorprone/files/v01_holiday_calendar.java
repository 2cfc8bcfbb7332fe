package com.acme.calendar;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

public class HolidayCalendar {

  private final Map<Integer, List<LocalDate>> byYear;

  public HolidayCalendar(Map<Integer, List<LocalDate>> byYear) {
    this.byYear = byYear;
  }

  public List<LocalDate> holidaysBetween(LocalDate from, LocalDate to) {
    if (to.isBefore(from)) {
      return Collections.emptyList();
    }
    List<LocalDate> result = new ArrayList<>();
    for (int year = from.getYear(); year <= to.getYear(); year++) {
      for (LocalDate day : byYear.getOrDefault(year, List.of())) {
        if (!day.isBefore(from) && !day.isAfter(to)) {
          result.add(day);
        }
      }
    }
    return result;
  }
}
