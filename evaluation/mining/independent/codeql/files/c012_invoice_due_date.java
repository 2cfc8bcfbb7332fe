package billing.invoices;

import java.time.DayOfWeek;
import java.time.LocalDate;

public class InvoiceDueDate {

    private final int termDays;

    public InvoiceDueDate(int termDays) {
        this.termDays = termDays;
    }

    public LocalDate dueFor(LocalDate issued) {
        LocalDate due = issued.plusDays(termDays);
        if (due.getDayOfWeek() == DayOfWeek.SATURDAY) {
            due = due.plusDays(2);
        } else if (due.getDayOfWeek() == DayOfWeek.SUNDAY) {
            due = due.plusDays(1);
        }
        return due;
    }

    public static void main(String[] args) {
        System.out.println(new InvoiceDueDate(30).dueFor(LocalDate.of(2024, 5, 4)));
    }
}
