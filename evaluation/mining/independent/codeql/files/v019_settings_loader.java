package desktop.settings;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;

public class SettingsLoader {

    private InputStream source;

    public boolean open(File settingsFile) {
        try {
            source = new FileInputStream(settingsFile);
            return true;
        } catch (FileNotFoundException missing) {
            System.err.println("no settings at " + settingsFile + ", using defaults");
            return false;
        } catch (IOException unreadable) {
            System.err.println("cannot read " + settingsFile + ": " + unreadable.getMessage());
            return false;
        }
    }

    public InputStream source() {
        return source;
    }
}
