package cache.sharding;

import java.util.List;
import java.util.Random;

public class ShardRouter {

    private static final int MAX_SHARDS = 16;

    private final String[] shardHosts;
    private final Random random = new Random();

    public ShardRouter(List<String> configuredHosts) {
        this.shardHosts = configuredHosts.toArray(new String[0]);
    }

    public String anyShard() {
        int slot = random.nextInt(MAX_SHARDS);
        return shardHosts[slot];
    }

    public String shardFor(String key) {
        int slot = Math.floorMod(key.hashCode(), shardHosts.length);
        return shardHosts[slot];
    }
}
