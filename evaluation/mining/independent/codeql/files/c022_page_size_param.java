package api.paging;

public final class PageSizeParam {

    public static final int DEFAULT = 25;
    public static final int MAX = 200;

    private PageSizeParam() {
    }

    public static int parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return DEFAULT;
        }
        try {
            int size = Integer.parseInt(raw.trim());
            return Math.max(1, Math.min(size, MAX));
        } catch (NumberFormatException e) {
            return DEFAULT;
        }
    }

    public static void main(String[] args) {
        System.out.println(parse("50") + " " + parse("lots") + " " + parse(null));
    }
}
