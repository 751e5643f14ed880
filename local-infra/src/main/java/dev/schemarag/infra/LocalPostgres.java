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
