package shop.orders;

public class OrderStatusMailer {

    enum Status { NEW, PAID, SHIPPED, CANCELLED }

    private final MailGateway mail;

    public OrderStatusMailer(MailGateway mail) {
        this.mail = mail;
    }

    public void onStatusChange(String customer, Status status) {
        switch (status) {
            case NEW:
                mail.send(customer, "We received your order");
                break;
            case PAID:
                mail.send(customer, "Payment received");
            case SHIPPED:
                mail.send(customer, "Your parcel is on its way");
                break;
            case CANCELLED:
                mail.send(customer, "Your order was cancelled");
                break;
            default:
                throw new IllegalStateException("unexpected status " + status);
        }
    }

    interface MailGateway {
        void send(String to, String subject);
    }
}
