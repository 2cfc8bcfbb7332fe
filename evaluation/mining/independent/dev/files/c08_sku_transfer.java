package cn.wms.transfer;

import java.util.ArrayList;
import java.util.List;

public class SkuTransferService {

    private final List<TransferLineDTO> pending = new ArrayList<>();

    public void stage(String sku, int quantity, String fromBin, String toBin) {
        pending.add(new TransferLineDTO(sku, quantity, fromBin, toBin));
    }

    public String export() {
        return new JsonExporter().write(pending);
    }

    public static class TransferLineDTO {
        final String sku;
        final int quantity;
        final String fromBin;
        final String toBin;

        TransferLineDTO(String sku, int quantity, String fromBin, String toBin) {
            this.sku = sku;
            this.quantity = quantity;
            this.fromBin = fromBin;
            this.toBin = toBin;
        }
    }

    static class JsonExporter {
        String write(List<TransferLineDTO> lines) {
            StringBuilder out = new StringBuilder("[");
            for (TransferLineDTO line : lines) {
                out.append("{\"sku\":\"").append(line.sku).append("\"},");
            }
            return out.append("]").toString();
        }
    }
}
