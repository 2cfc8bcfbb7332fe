package crm.imports;

import java.util.ArrayList;
import java.util.List;

public class CsvImporter {

    private final ContactStore store;

    public CsvImporter(ContactStore store) {
        this.store = store;
    }

    public int importRows(List<String[]> rows) {
        List<String> rejectedIds = new ArrayList<>();
        int imported = 0;
        for (String[] row : rows) {
            if (row.length < 3 || row[2].isBlank()) {
                rejectedIds.add(row.length > 0 ? row[0] : "?");
                continue;
            }
            store.save(row[0], row[1], row[2]);
            imported++;
        }
        return imported;
    }

    interface ContactStore {
        void save(String id, String name, String email);
    }
}
