package etl.loader;

public final class BatchSizer {

    private static final int ROW_BYTES = 4096;

    private BatchSizer() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: BatchSizer <rows-per-batch>");
            System.exit(2);
        }
        int rowsPerBatch = Integer.parseInt(args[0]);
        int batchBytes = rowsPerBatch * ROW_BYTES;
        System.out.println("each batch buffers " + batchBytes + " bytes");
        byte[] buffer = new byte[Math.max(batchBytes, 0)];
        System.out.println("allocated " + buffer.length);
    }
}
