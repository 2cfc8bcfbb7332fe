package media.encode;

public final class VideoFrameBudget {

    private final int width;
    private final int height;
    private final int bytesPerPixel;

    public VideoFrameBudget(int width, int height, int bytesPerPixel) {
        this.width = width;
        this.height = height;
        this.bytesPerPixel = bytesPerPixel;
    }

    public long frameBytes() {
        return (long) width * height * bytesPerPixel;
    }

    public long bufferBytes(int frames) {
        return frameBytes() * frames;
    }

    public static void main(String[] args) {
        VideoFrameBudget uhd = new VideoFrameBudget(7680, 4320, 4);
        System.out.println("one 8K frame: " + uhd.frameBytes() + " bytes");
        System.out.println("120 frames: " + uhd.bufferBytes(120) + " bytes");
    }
}
