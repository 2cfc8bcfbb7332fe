package release.notes;

import java.util.List;

public class ChangelogBuilder {

    private final String version;

    public ChangelogBuilder(String version) {
        this.version = version;
    }

    public String build(List<String> entries) {
        StringBuilder notes = null;
        if (notes == null) {
            notes = new StringBuilder("## ").append(version).append('\n');
        }
        for (String entry : entries) {
            notes.append("- ").append(entry).append('\n');
        }
        return notes.toString();
    }
}
