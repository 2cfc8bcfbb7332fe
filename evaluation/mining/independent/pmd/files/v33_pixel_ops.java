package org.imaging.ops;

public final class PixelOps {

    private PixelOps() {
    }

    public static int invertOffset(int offset) {
        return - -offset;
    }

    public static boolean isOpaque(int argb) {
        boolean transparent = (argb >>> 24) == 0;
        return !!!transparent;
    }

    public static int clearLowBits(int value, int mask) {
        return value & ~~mask;
    }

    public static int brighten(int channel, int amount) {
        return Math.min(255, channel + amount);
    }
}
