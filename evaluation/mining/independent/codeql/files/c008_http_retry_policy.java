package net.client.retry;

public final class HttpRetryPolicy {

    private HttpRetryPolicy() {
    }

    public static int delayMillis(int status, int attempt) {
        int base;
        switch (status) {
            case 429:
                base = 2000;
                break;
            case 502:
                // falls through
            case 503:
            case 504:
                base = 500;
                break;
            case 408:
                return 250 * attempt;
            default:
                return -1;
        }
        return base * (1 << Math.min(attempt, 5));
    }

    public static void main(String[] args) {
        System.out.println(delayMillis(503, 2));
        System.out.println(delayMillis(404, 1));
    }
}
