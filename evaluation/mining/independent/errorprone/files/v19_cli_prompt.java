package org.tools.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public final class PasswordPrompt {

  private PasswordPrompt() {
  }

  public static char[] read(String label) throws IOException {
    Console console = System.console();
    if (console != null) {
      return console.readPassword("%s: ", label);
    }
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line = in.readLine();
    return line == null ? new char[0] : line.toCharArray();
  }

  public static boolean interactive() {
    return System.console() != null;
  }
}
