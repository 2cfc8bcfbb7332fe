package shop.fulfilment;

public class ShippingLabelText {

    private final AddressFormatter formatter;

    public ShippingLabelText(AddressFormatter formatter) {
        this.formatter = formatter;
    }

    public String forOrder(Order order) {
        String text = formatter.format(order.address());
        text = order.customLabel();
        if (text == null || text.isBlank()) {
            return "ORDER " + order.id();
        }
        return text.toUpperCase();
    }

    interface AddressFormatter {
        String format(String address);
    }

    interface Order {
        String id();

        String address();

        String customLabel();
    }
}
