package org.imaging.ops;

public final class PixelOps {

    private PixelOps() {
    }

    public static int negate(int offset) {
        return -offset;
    }

    public static boolean isOpaque(int argb) {
        boolean transparent = (argb >>> 24) == 0;
        return !transparent;
    }

    public static int clearBits(int value, int mask) {
        return value & ~mask;
    }

    public static int decrement(int value) {
        return --value;
    }
}
