import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

public class SchemaMigrator {

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: SchemaMigrator <jdbc-url> <migrations-dir>");
            System.exit(2);
        }
        try (Connection connection = DriverManager.getConnection(args[0])) {
            new SchemaMigrator().apply(connection, Paths.get(args[1]));
        }
    }

    void apply(Connection connection, Path dir) throws Exception {
        List<Path> scripts;
        try (var files = Files.list(dir)) {
            scripts = files.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
        for (Path script : scripts) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(Files.readString(script));
            }
            System.out.println("applied " + script.getFileName());
        }
    }
}
