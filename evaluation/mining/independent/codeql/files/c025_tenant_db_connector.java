package saas.tenancy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

public class TenantDbConnector {

    private final String url;

    public TenantDbConnector(String tenant) {
        this.url = "jdbc:mysql://tenants-db:3306/" + tenant;
    }

    public Connection open() throws SQLException {
        String user = System.getenv("TENANT_DB_USER");
        String password = System.getenv("TENANT_DB_PASSWORD");
        if (user == null || password == null) {
            throw new IllegalStateException("TENANT_DB_USER and TENANT_DB_PASSWORD must be set");
        }
        return DriverManager.getConnection(url, user, password);
    }
}
