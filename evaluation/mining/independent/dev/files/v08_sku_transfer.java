package cn.wms.transfer;

import java.util.ArrayList;
import java.util.List;

public class SKUTransferService {

    private final List<TransferLineDto> pending = new ArrayList<>();

    public void stage(String sku, int quantity, String fromBin, String toBin) {
        pending.add(new TransferLineDto(sku, quantity, fromBin, toBin));
    }

    public String export() {
        return new JSONExporter().write(pending);
    }

    public static class TransferLineDto {
        final String sku;
        final int quantity;
        final String fromBin;
        final String toBin;

        TransferLineDto(String sku, int quantity, String fromBin, String toBin) {
            this.sku = sku;
            this.quantity = quantity;
            this.fromBin = fromBin;
            this.toBin = toBin;
        }
    }

    static class JSONExporter {
        String write(List<TransferLineDto> lines) {
            StringBuilder out = new StringBuilder("[");
            for (TransferLineDto line : lines) {
                out.append("{\"sku\":\"").append(line.sku).append("\",\"qty\":").append(line.quantity).append("},");
            }
            return out.append("]").toString();
        }
    }
}
