package cn.logistics.dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class BatchDispatcher {

    private static final int SIZE_BATCH = 200;

    private final Map<String, Carrier> mapCarrier = new HashMap<>();

    public void register(Carrier carrier) {
        mapCarrier.put(carrier.getCode(), carrier);
    }

    public int dispatch(List<Shipment> shipments) {
        List<Shipment> listPending = new ArrayList<>(SIZE_BATCH);
        int countSent = 0;
        for (Shipment shipment : shipments) {
            listPending.add(shipment);
            if (listPending.size() == SIZE_BATCH) {
                countSent += flush(listPending);
            }
        }
        return countSent + flush(listPending);
    }

    private int flush(List<Shipment> batch) {
        int sent = 0;
        for (Shipment shipment : batch) {
            Carrier carrier = mapCarrier.get(shipment.getCarrierCode());
            if (carrier != null && carrier.accept(shipment)) {
                sent++;
            }
        }
        batch.clear();
        return sent;
    }
}
