package dev.schemarag.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * A named throwaway PostgreSQL 15 + pgvector cluster, driven through {@code scripts/local-pg.sh}
 * (shipped in this jar) so that the CLI, the tests and CI run exactly the same steps.
 */
public final class LocalPostgres {

  private static final String SCRIPT = "/dev/schemarag/infra/local-pg.sh";
  private static Path extracted;

  private final String name;

  public LocalPostgres(String name) {
    if (!name.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException("cluster name must be letters, digits, '_' or '-': " + name);
    }
    this.name = name;
  }

  public String name() {
    return name;
  }

  /**
   * This process's claim on the cluster, to hold while it uses it: two runs of one cluster each stop
   * it when done, under the other. An operating-system lock on a file named after the cluster, so a
   * run that died leaves no claim behind.
   *
   * @throws LocalInfraException when another run (of this process or another) holds the claim
   */
  public Claim claim() {
    Path file = claimFile();
    java.nio.channels.FileChannel channel;
    try {
      channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + file + " to claim the local PostgreSQL cluster '" + name + "'", e);
    }
    java.nio.channels.FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("cannot lock " + file + " to claim the local PostgreSQL cluster '" + name + "'", e);
    }
    if (lock == null) {
      closeQuietly(channel);
      throw new LocalInfraException("the local PostgreSQL cluster '" + name + "' is in use by another schemarag run (" + file
          + " is locked): wait for that run to end, or give this one a cluster of its own (local.pg.name, or --pg-name for bench scale)");
    }
    return new Claim(channel);
  }

  /** The file whose lock is the claim on this cluster: it stays when released, so that a lock is always taken on the same file. */
  Path claimFile() {
    return Path.of(System.getProperty("java.io.tmpdir"), "schemarag-pg-" + name + ".lock");
  }

  /** A held claim on a cluster ({@link #claim}); closing it lets another run claim the cluster. */
  public static final class Claim implements AutoCloseable {
    private final java.nio.channels.FileChannel channel;

    private Claim(java.nio.channels.FileChannel channel) {
      this.channel = channel;
    }

    /** Releases the claim (closing the file releases its lock). */
    @Override
    public void close() {
      closeQuietly(channel);
    }
  }

  private static void closeQuietly(java.nio.channels.FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Closing a lock file's channel has nothing left to save.
    }
  }

  /** Starts the cluster when it is not running (installing pgvector when missing); returns its JDBC URL. */
  public String start() {
    return lastLine(run("start"));
  }

  /** Stops the cluster, keeping its data. */
  public void stop() {
    run("stop");
  }

  /** Stops the cluster and deletes its data. */
  public void purge() {
    run("stop", "--purge");
  }

  public boolean running() {
    return run("status").startsWith("running");
  }

  /** The postmaster's pid while it runs. */
  public OptionalLong pid() {
    if (!running()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(lastLine(run("pid")).trim()));
  }

  private static String lastLine(String out) {
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1].trim();
  }

  private String run(String... args) {
    List<String> cmd = new ArrayList<>(List.of("bash", script().toString()));
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("--name", name));
    try {
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE).start();
      // Read both streams fully; stderr carries install progress and the script's error messages.
      var err = new java.util.concurrent.CompletableFuture<String>();
      Thread t = new Thread(() -> {
        try {
          err.complete(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
          err.complete("");
        }
      }, "local-pg-stderr");
      t.setDaemon(true);
      t.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("local-pg.sh " + String.join(" ", args) + " did not finish in 10 minutes");
      }
      String stderr = err.get(10, TimeUnit.SECONDS);
      if (p.exitValue() != 0) {
        throw new LocalInfraException(stderr.isBlank() ? "local-pg.sh " + args[0] + " failed (exit " + p.exitValue() + ")" : stderr.strip());
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run local-pg.sh", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running local-pg.sh", e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("cannot read local-pg.sh output", e);
    }
  }

  private static synchronized Path script() {
    if (extracted == null) {
      try (InputStream in = LocalPostgres.class.getResourceAsStream(SCRIPT)) {
        if (in == null) {
          throw new IllegalStateException("local-pg.sh is missing from the local-infra jar");
        }
        Path tmp = Files.createTempFile("schemarag-local-pg", ".sh");
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        tmp.toFile().deleteOnExit();
        extracted = tmp;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot extract local-pg.sh", e);
      }
    }
    return extracted;
  }
}
