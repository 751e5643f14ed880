package dev.schemarag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocWatcherTest {

  @TempDir Path dir;

  private static DocWatcher.DocChange next(BlockingQueue<DocWatcher.DocChange> q) throws InterruptedException {
    DocWatcher.DocChange c = q.poll(10, TimeUnit.SECONDS);
    assertThat(c).as("a doc change within 10 s").isNotNull();
    return c;
  }

  @Test
  void reportsPresentFilesThenSettledEditsAndDeletesButNotRewritesOfTheSameContent() throws Exception {
    Files.writeString(dir.resolve("orders.md"), "# Table: orders\n");
    BlockingQueue<DocWatcher.DocChange> changes = new LinkedBlockingQueue<>();
    try (DocWatcher w = new DocWatcher(dir, Duration.ofMillis(200), changes::add)) {
      w.start();
      assertThat(next(changes).content()).hasValue("# Table: orders\n");

      // Same bytes again: no change. The next distinct write is the next thing reported.
      Files.writeString(dir.resolve("orders.md"), "# Table: orders\n");
      Files.writeString(dir.resolve("customers.md"), "# Table: customers\n");
      DocWatcher.DocChange c = next(changes);
      assertThat(c.path()).isEqualTo("customers.md");

      // Several quick writes settle into one report of the last content.
      for (int i = 0; i < 5; i++) {
        Files.writeString(dir.resolve("orders.md"), "# Table: orders\n\n## Purpose\nv" + i + "\n");
      }
      DocWatcher.DocChange edited = next(changes);
      assertThat(edited.content()).hasValueSatisfying(s -> assertThat(s).endsWith("v4\n"));

      Files.delete(dir.resolve("customers.md"));
      DocWatcher.DocChange deleted = next(changes);
      assertThat(deleted.path()).isEqualTo("customers.md");
      assertThat(deleted.content()).isEmpty();
      assertThat(changes.poll(300, TimeUnit.MILLISECONDS)).isNull();
    }
  }
}
