package banking.iban;

public final class ChecksumDigit {

    private ChecksumDigit() {
    }

    public static boolean isOdd(int value) {
        return value % 2 != 0;
    }

    public static int luhn(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            if (isOdd(i)) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
        }
        return sum % 10;
    }
}
