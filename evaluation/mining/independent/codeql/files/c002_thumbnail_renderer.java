package io.gallerybox.media;

import java.io.File;
import java.io.IOException;
import java.util.List;

public class ThumbnailRenderer {

    private static final String CONVERT = "/usr/bin/convert";

    private final File outputDir;

    public ThumbnailRenderer(File outputDir) {
        this.outputDir = outputDir;
    }

    public File render(File original, int edge) throws IOException, InterruptedException {
        File thumb = new File(outputDir, "thumb-" + edge + "-" + original.getName());
        List<String> args = List.of(CONVERT, original.getPath(), "-thumbnail",
                edge + "x" + edge, thumb.getPath());
        ProcessBuilder builder = new ProcessBuilder(args);
        builder.redirectErrorStream(true);
        Process convert = builder.start();
        int code = convert.waitFor();
        if (code != 0) {
            throw new IOException("convert failed with exit code " + code);
        }
        return thumb;
    }
}
