package storage.quota;

public class DiskQuota {

    private final int blockSize;
    private final int maxBlocks;

    public DiskQuota(int blockSize, int maxBlocks) {
        this.blockSize = blockSize;
        this.maxBlocks = maxBlocks;
    }

    public long capacityBytes() {
        long bytes = maxBlocks * blockSize;
        return bytes;
    }

    public boolean fits(long requestedBytes, long usedBytes) {
        return usedBytes + requestedBytes <= capacityBytes();
    }

    public String describe() {
        long mib = capacityBytes() / (1024 * 1024);
        return maxBlocks + " blocks of " + blockSize + " bytes (" + mib + " MiB)";
    }

    public static void main(String[] args) {
        DiskQuota quota = new DiskQuota(65536, 100_000);
        System.out.println(quota.describe());
    }
}
