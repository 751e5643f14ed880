package dev.schemarag.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

final class ProcessHandles {
  private ProcessHandles() {}

  /** Alive and not a zombie: here PID 1 does not reap, so an exited postmaster may linger as state Z. */
  static boolean running(long pid) {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    try {
      return Files.readAllLines(status).stream().filter(l -> l.startsWith("State:")).noneMatch(l -> l.contains("Z"));
    } catch (IOException e) {
      return false;
    }
  }
}
