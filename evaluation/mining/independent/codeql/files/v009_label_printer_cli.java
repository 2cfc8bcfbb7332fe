package warehouse.labels;

import java.util.List;

public class LabelPrinterCli {

    record Label(String sku, String bin, int quantity) {
    }

    public static void main(String[] args) {
        String layout = System.getenv("LABEL_LAYOUT");
        if (layout == null) {
            layout = "%s | bin %s | qty %d%n";
        }
        List<Label> labels = List.of(
                new Label("SKU-1001", "A-03", 12),
                new Label("SKU-2040", "C-11", 4));
        for (Label label : labels) {
            System.out.printf(layout, label.sku(), label.bin(), label.quantity());
        }
    }
}
