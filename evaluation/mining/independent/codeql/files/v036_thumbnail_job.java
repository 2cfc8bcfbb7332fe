package media.jobs;

public class ThumbnailJob implements Runnable {

    private final JobConfig config;
    private final ImageStore store;

    public ThumbnailJob(JobConfig config, ImageStore store) {
        this.config = config;
        this.store = store;
    }

    @Override
    public void run() {
        int retries = config.retries();
        for (String id : store.pendingIds()) {
            byte[] original = store.load(id);
            store.saveThumbnail(id, shrink(original, config.edge()));
        }
    }

    private static byte[] shrink(byte[] image, int edge) {
        return image.length <= edge ? image : java.util.Arrays.copyOf(image, edge);
    }

    interface JobConfig {
        int retries();

        int edge();
    }

    interface ImageStore {
        Iterable<String> pendingIds();

        byte[] load(String id);

        void saveThumbnail(String id, byte[] thumbnail);
    }
}
