package reports.export;

public class ExportJobWaiter {

    private final ExportJob job;

    public ExportJobWaiter(ExportJob job) {
        this.job = job;
    }

    public byte[] awaitResult() throws InterruptedException {
        while (!job.isFinished()) {
            Thread.sleep(200);
        }
        if (job.failed()) {
            throw new IllegalStateException("export failed: " + job.error());
        }
        return job.result();
    }

    interface ExportJob {
        boolean isFinished();

        boolean failed();

        String error();

        byte[] result();
    }
}
