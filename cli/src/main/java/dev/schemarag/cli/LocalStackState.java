package dev.schemarag.cli;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/** What a running embedded default started, on disk so that {@code demo --stop} in another process can stop it. */
record LocalStackState(Path dir) {

  static LocalStackState at(SchemaragConfig config) {
    Path dir = config.optional(ConfigKeys.LOCAL_DIR).map(Path::of)
        .orElse(Path.of(System.getProperty("java.io.tmpdir"), "schemarag-local"));
    return new LocalStackState(dir);
  }

  Path file() {
    return dir.resolve("demo.properties");
  }

  Optional<Properties> read() {
    if (!Files.isRegularFile(file())) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file())) {
      p.load(r);
      return Optional.of(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file(), e);
    }
  }

  /**
   * The state of what runs here: a demo whose process is alive, with its infrastructure written, else
   * a stack of {@code ./schemarag up} with a process alive (its state has the same keys).
   */
  Optional<Properties> running() {
    return demoRunning().or(() -> ProcessStack.runningState(dir));
  }

  /** The state of a demo whose process is alive, with its infrastructure written. */
  Optional<Properties> demoRunning() {
    return read().filter(p -> p.getProperty("bootstrap.servers") != null
        && ProcessHandle.of(Long.parseLong(p.getProperty("demo.pid", "-1"))).map(ProcessHandle::isAlive).orElse(false));
  }

  void write(Properties p) {
    try {
      Files.createDirectories(dir);
      Path tmp = dir.resolve("demo.properties.tmp");
      try (Writer w = Files.newBufferedWriter(tmp)) {
        p.store(w, "running schemarag demo");
      }
      Files.move(tmp, file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file(), e);
    }
  }

  void clear() {
    try {
      Files.deleteIfExists(file());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
