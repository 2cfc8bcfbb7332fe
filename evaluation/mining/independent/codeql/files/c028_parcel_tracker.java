package logistics.tracking;

public class ParcelTracker {

    private final ParcelIndex index;

    public ParcelTracker(ParcelIndex index) {
        this.index = index;
    }

    public String status(String trackingNumber) {
        Parcel parcel = null;
        if (trackingNumber != null) {
            parcel = index.find(trackingNumber.trim());
        }
        if (parcel == null) {
            return "unknown parcel";
        }
        return parcel.lastScan();
    }

    interface ParcelIndex {
        Parcel find(String trackingNumber);
    }

    interface Parcel {
        String lastScan();
    }
}
