package portal.ui;

public final class MaintenanceBanner {

    private MaintenanceBanner() {
    }

    public static String message(String window, String contact) {
        return "Scheduled maintenance will take the portal offline "
                + "during " + window + ". "
                + "Questions can be sent to " + contact + "; "
                + "urgent incidents are still handled by the on-call team.";
    }

    public static String shortMessage(String window) {
        return "Offline " + window;
    }

    public static void main(String[] args) {
        System.out.println(message("Sunday 02:00-04:00 UTC", "ops@example.org"));
    }
}
