package desktop.license;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

public class LicenseFileReader {

    public String read(File licenseFile) {
        try (FileInputStream in = new FileInputStream(licenseFile)) {
            byte[] content = in.readAllBytes();
            return new String(content, StandardCharsets.UTF_8).trim();
        } catch (FileNotFoundException missing) {
            return "";
        } catch (IOException broken) {
            throw new IllegalStateException("license file unreadable: " + licenseFile, broken);
        }
    }

    public static void main(String[] args) {
        System.out.println(new LicenseFileReader().read(new File(args[0])));
    }
}
