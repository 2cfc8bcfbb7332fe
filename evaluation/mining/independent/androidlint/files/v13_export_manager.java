package com.example.exporter;

import android.content.Context;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

public class ExportManager {

	private static final String EXPORT_DIR = "/sdcard/Download/exports";

	private final Context context;

	public ExportManager(Context context) {
		this.context = context;
	}

	public File export(String name, byte[] data) throws IOException {
		File dir = new File(EXPORT_DIR);
		if (!dir.exists() && !dir.mkdirs()) {
			throw new IOException("cannot create " + dir);
		}
		File out = new File(dir, name);
		try (FileOutputStream stream = new FileOutputStream(out)) {
			stream.write(data);
		}
		return out;
	}

	public File cacheFile(String name) {
		return new File("/data/data/" + context.getPackageName() + "/cache/" + name);
	}
}
