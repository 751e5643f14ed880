package dev.schemarag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Where a short stretch of wall time went, thread by thread: each thread's time on a core and time
 * waiting in the run queue for one, in nanoseconds ({@code /proc/PID/task/TID/schedstat}, Linux), for
 * this JVM by thread name and for the broker and PostgreSQL as processes. A question whose wall time is
 * far above its thread's CPU time either waited for a core (run queue) or for something else (a lock,
 * I/O, another thread's result); this tells which, and who held the cores meanwhile. Where there is no
 * {@code /proc} every figure reads 0.
 */
final class CoreWaits {
  private CoreWaits() {}

  /** One thread's times at one moment. */
  record Times(String name, long onCoreNanos, long waitingNanos) {}

  /**
   * The threads of this JVM by id, and the other processes' totals, read one after the other between {@code
   * startNanos} and {@code endNanos}: each thread's figure is of some moment in between.
   */
  record Sample(Map<Long, Times> threads, long brokerNanos, long postgresNanos, long startNanos, long endNanos) {}

  static Sample sample(OptionalLong brokerPid, OptionalLong postgresPid) {
    long start = System.nanoTime();
    Map<Long, Times> threads = threads(Path.of("/proc/self/task"));
    long broker = brokerPid.isPresent() ? process(brokerPid.getAsLong()) : 0;
    long postgres = postgresPid.isPresent() ? tree(postgresPid.getAsLong()) : 0;
    return new Sample(threads, broker, postgres, start, System.nanoTime());
  }

  /** The calling thread's own times: one small read, taken right at the edges of what it measures. */
  static Times self() {
    try {
      String[] f = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split("\\s+");
      return new Times("self", Long.parseLong(f[0]), Long.parseLong(f[1]));
    } catch (IOException | RuntimeException e) {
      return new Times("self", 0, 0);
    }
  }

  /** This thread's id as Linux knows it ({@code /proc/thread-self}), or -1. */
  static long currentThreadId() {
    try {
      return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * One line on a question: its own thread's time on a core and waiting for one ({@code selfFrom} and {@code
   * selfTo}, read right before and after it), then, over the wider stretch the two samples span, the same for
   * the threads named {@code helperName} (work the asking thread waits on), the busiest other threads of this
   * JVM, and the broker's and PostgreSQL's time on a core.
   */
  static String between(Sample from, Times selfFrom, Times selfTo, Sample to, long askingThread, String helperName, int busiest) {
    Times asker = delta(selfFrom, selfTo);
    long helperOn = 0;
    long helperWait = 0;
    List<Times> others = new ArrayList<>();
    for (Map.Entry<Long, Times> e : to.threads().entrySet()) {
      if (e.getKey() == askingThread) {
        continue;
      }
      Times d = delta(from.threads().get(e.getKey()), e.getValue());
      if (e.getValue().name().startsWith(helperName)) {
        helperOn += d.onCoreNanos();
        helperWait += d.waitingNanos();
      } else if (d.onCoreNanos() > 0) {
        others.add(d);
      }
    }
    others.sort((a, b) -> Long.compare(b.onCoreNanos(), a.onCoreNanos()));
    StringBuilder top = new StringBuilder();
    for (Times t : others.subList(0, Math.min(busiest, others.size()))) {
      top.append(top.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %.1f", t.name(), t.onCoreNanos() / 1e6));
    }
    return String.format(Locale.ROOT, "on a core / waiting for one (ms): the question's thread %.1f / %.1f; within %.0f to %.0f ms around it, %s %.1f / %.1f,"
            + " busiest other threads: %s; the broker %.1f, PostgreSQL %.1f", asker.onCoreNanos() / 1e6, asker.waitingNanos() / 1e6,
        (to.startNanos() - from.endNanos()) / 1e6, (to.endNanos() - from.startNanos()) / 1e6, helperName, helperOn / 1e6,
        helperWait / 1e6, top.isEmpty() ? "none" : top, (to.brokerNanos() - from.brokerNanos()) / 1e6,
        (to.postgresNanos() - from.postgresNanos()) / 1e6);
  }

  private static Times delta(Times from, Times to) {
    if (to == null) {
      return new Times("?", 0, 0);
    }
    return from == null ? to : new Times(to.name(), to.onCoreNanos() - from.onCoreNanos(), to.waitingNanos() - from.waitingNanos());
  }

  private static Map<Long, Times> threads(Path tasks) {
    Map<Long, Times> out = new HashMap<>();
    try (var list = Files.list(tasks)) {
      for (Path task : (Iterable<Path>) list::iterator) {
        try {
          String[] f = Files.readString(task.resolve("schedstat")).trim().split("\\s+");
          out.put(Long.parseLong(task.getFileName().toString()),
              new Times(Files.readString(task.resolve("comm")).strip(), Long.parseLong(f[0]), Long.parseLong(f[1])));
        } catch (IOException | RuntimeException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return out;
  }

  /** A process's threads' time on a core, summed. */
  private static long process(long pid) {
    return threads(Path.of("/proc", Long.toString(pid), "task")).values().stream().mapToLong(Times::onCoreNanos).sum();
  }

  /** A process and its live descendants (PostgreSQL's backends), time on a core. */
  private static long tree(long pid) {
    return process(pid) + ProcessHandle.of(pid).map(h -> h.descendants().mapToLong(d -> process(d.pid())).sum()).orElse(0L);
  }
}
