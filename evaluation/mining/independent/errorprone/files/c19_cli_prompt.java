package org.tools.cli;

import java.io.Console;

public final class PasswordPrompt {

  private PasswordPrompt() {
  }

  public static char[] read(String label) {
    Console console = System.console();
    return console.readPassword("%s: ", label);
  }

  public static boolean interactive() {
    Console console = System.console();
    return console.isTerminal();
  }

  public static void banner(String text) {
    System.out.println("== " + text + " ==");
  }
}
