package dev.schemarag.ingest;

import dev.schemarag.core.chunk.Hashing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one database's docs folder and reports each markdown file's content once it settles:
 * events are debounced per file (an editor's save is several writes), and a write that leaves the
 * content hash unchanged is not reported. A deleted file is reported once, without content. On
 * start every file present is reported.
 */
public final class DocWatcher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DocWatcher.class);

  /** One settled change: {@code content} empty = the file was deleted. */
  public record DocChange(String path, Optional<String> content, String sha256, long modifiedAtMs) {}

  private final Path dir;
  private final Duration debounce;
  private final Consumer<DocChange> sink;
  private final Map<String, String> lastHash = new ConcurrentHashMap<>();
  private final Map<String, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "doc-watcher-debounce"));
  private WatchService watch;
  private Thread loop;

  public DocWatcher(Path dir, Duration debounce, Consumer<DocChange> sink) {
    this.dir = dir;
    this.debounce = debounce;
    this.sink = sink;
  }

  public void start() throws IOException {
    Files.createDirectories(dir);
    watch = FileSystems.getDefault().newWatchService();
    dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(DocWatcher::isDoc).sorted().forEach(p -> settle(p.getFileName().toString()));
    }
    loop = daemon(this::run, "doc-watcher");
    loop.start();
  }

  private static boolean isDoc(Path p) {
    return p.getFileName().toString().endsWith(".md");
  }

  private void run() {
    try {
      while (true) {
        WatchKey key = watch.take();
        for (WatchEvent<?> e : key.pollEvents()) {
          if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
            // Events were lost: look at every file again.
            try (Stream<Path> files = Files.list(dir)) {
              files.filter(DocWatcher::isDoc).forEach(p -> schedule(p.getFileName().toString()));
            }
            lastHash.keySet().forEach(this::schedule);
            continue;
          }
          Path name = (Path) e.context();
          if (isDoc(name)) {
            schedule(name.toString());
          }
        }
        if (!key.reset()) {
          LOG.warn("docs folder {} is no longer watchable", dir);
          return;
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // stopping
    } catch (IOException e) {
      LOG.error("doc watcher stopped: {}", e.getMessage());
    }
  }

  private void schedule(String name) {
    pending.compute(name, (k, old) -> {
      if (old != null) {
        old.cancel(false);
      }
      return timer.schedule(() -> settle(name), debounce.toMillis(), TimeUnit.MILLISECONDS);
    });
  }

  private void settle(String name) {
    pending.remove(name);
    Path file = dir.resolve(name);
    try {
      if (Files.isRegularFile(file)) {
        String content = Files.readString(file, StandardCharsets.UTF_8);
        String sha = Hashing.sha256(content);
        if (sha.equals(lastHash.put(name, sha))) {
          return;
        }
        sink.accept(new DocChange(name, Optional.of(content), sha, Files.getLastModifiedTime(file).toMillis()));
      } else if (lastHash.remove(name) != null) {
        sink.accept(new DocChange(name, Optional.empty(), "", System.currentTimeMillis()));
      }
    } catch (IOException | UncheckedIOException e) {
      // Mid-write or gone again: the next event settles it.
      LOG.warn("could not read doc {}: {}", file, e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("could not publish doc {}: {}", file, e.getMessage());
      lastHash.remove(name);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    if (watch != null) {
      try {
        watch.close();
      } catch (IOException e) {
        LOG.debug("closing the watch service: {}", e.getMessage());
      }
    }
    if (loop != null) {
      loop.interrupt();
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
