package utility.metering;

import java.io.PrintStream;
import java.time.LocalDate;

public class MeterReadingLog {

    private final PrintStream out;

    public MeterReadingLog(PrintStream out) {
        this.out = out;
    }

    public void record(String meterId, LocalDate day, double kwh, double previousKwh) {
        double delta = kwh - previousKwh;
        out.printf("%-12s %s %10.2f kWh (%+.2f)%n", meterId, day, kwh, delta);
    }

    public void warnGap(String meterId, int missingDays) {
        out.printf("meter %s has no reading for %d day(s)%n", meterId, missingDays);
    }

    public static void main(String[] args) {
        MeterReadingLog log = new MeterReadingLog(System.out);
        log.record("MTR-0042", LocalDate.of(2024, 3, 1), 1234.5, 1200.25);
        log.warnGap("MTR-0077", 3);
    }
}
