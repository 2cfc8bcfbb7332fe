package crm.greeting;

public class CustomerGreeting {

    private final CustomerRepository repository;

    public CustomerGreeting(CustomerRepository repository) {
        this.repository = repository;
    }

    public String greet(String customerId) {
        Customer customer = null;
        if (customerId != null && !customerId.isEmpty()) {
            customer = repository.byId(customerId);
        }
        String name = customer.displayName();
        return "Welcome back, " + name + "!";
    }

    interface CustomerRepository {
        Customer byId(String id);
    }

    interface Customer {
        String displayName();
    }
}
