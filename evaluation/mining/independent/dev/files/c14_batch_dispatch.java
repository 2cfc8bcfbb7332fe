package cn.logistics.dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class BatchDispatcher {

    private static final int BATCH_SIZE = 200;

    private final Map<String, Carrier> carrierMap = new HashMap<>(16);

    public void register(Carrier carrier) {
        carrierMap.put(carrier.getCode(), carrier);
    }

    public int dispatch(List<Shipment> shipments) {
        List<Shipment> pendingList = new ArrayList<>(BATCH_SIZE);
        int sentCount = 0;
        for (Shipment shipment : shipments) {
            pendingList.add(shipment);
            if (pendingList.size() == BATCH_SIZE) {
                sentCount += flush(pendingList);
            }
        }
        return sentCount + flush(pendingList);
    }

    private int flush(List<Shipment> batch) {
        int acceptedCount = 0;
        for (Shipment shipment : batch) {
            Carrier carrier = carrierMap.get(shipment.getCarrierCode());
            if (carrier != null && carrier.accept(shipment)) {
                acceptedCount++;
            }
        }
        batch.clear();
        return acceptedCount;
    }
}
