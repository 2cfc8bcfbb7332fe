package maps.index;

public final class GeoIndexHolder {

    private static GeoIndex index;

    private GeoIndexHolder() {
    }

    public static GeoIndex get() {
        if (index == null) {
            synchronized (GeoIndexHolder.class) {
                if (index == null) {
                    index = GeoIndex.loadFromDisk("/srv/maps/tiles.idx");
                }
            }
        }
        return index;
    }

    public static final class GeoIndex {
        private final String path;

        private GeoIndex(String path) {
            this.path = path;
        }

        static GeoIndex loadFromDisk(String path) {
            return new GeoIndex(path);
        }

        public String path() {
            return path;
        }
    }
}
