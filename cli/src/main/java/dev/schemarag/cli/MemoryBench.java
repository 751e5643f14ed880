package dev.schemarag.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./schemarag bench memory}: each process of the stack {@code ./schemarag up} runs, with its
 * heap after a full collection (what it keeps, not what it has not yet collected) and its resident
 * memory, read with the JDK's {@code jcmd}.
 */
@Command(name = "memory", description = "Heap after a full GC and resident memory of each process of the stack of ./schemarag up"
    + " (jcmd GC.run, then GC.heap_info; RSS and peak RSS from /proc).")
final class MemoryBench implements Callable<Integer> {

  private static final Pattern HEAP = Pattern.compile("total (\\d+)K, used (\\d+)K");

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "write the figures here as JSON")
  Path json;

  /** A process's heap as {@code GC.heap_info} states it, in KB. */
  record Heap(long usedKb, long committedKb) {}

  /**
   * The heap in a {@code GC.heap_info} reply: the sum over its generations (one line for G1, the
   * young and old generation for the parallel collector); metaspace is not heap and has no total.
   */
  static Heap heap(String heapInfo) {
    long used = 0;
    long committed = 0;
    boolean found = false;
    for (String line : heapInfo.split("\n")) {
      Matcher m = HEAP.matcher(line);
      if (m.find()) {
        committed += Long.parseLong(m.group(1));
        used += Long.parseLong(m.group(2));
        found = true;
      }
    }
    if (!found) {
      throw new IllegalStateException("jcmd GC.heap_info gave no heap figures: " + heapInfo.strip());
    }
    return new Heap(used, committed);
  }

  @Override
  public Integer call() throws Exception {
    Main main = (Main) spec.parent().parent().userObject();
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    if (!Files.isExecutable(jcmd)) {
      throw new IllegalStateException("bench memory needs the JDK's jcmd, not found at " + jcmd);
    }
    List<ProcessStack.ProcStatus> procs = ProcessStack.of(main.config()).status().stream()
        .filter(p -> p.alive() && p.pid().isPresent()).toList();
    if (procs.isEmpty()) {
      throw new IllegalStateException("no process of ./schemarag up runs: start the stack first");
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    System.out.printf("%-18s %8s %22s %20s %10s %15s %6s%n", "process", "pid", "heap after full GC (MB)", "heap committed (MB)", "RSS (MB)",
        "peak RSS (MB)", "max");
    for (ProcessStack.ProcStatus p : procs) {
      long pid = p.pid().getAsLong();
      run(jcmd, pid, "GC.run");
      Heap heap = heap(run(jcmd, pid, "GC.heap_info"));
      long rss = procStatusBytes(Long.toString(pid), "VmRSS:");
      long peak = procStatusBytes(Long.toString(pid), "VmHWM:");
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("process", p.proc().name());
      row.put("pid", pid);
      row.put("heap_after_full_gc_mb", heap.usedKb() / 1024);
      row.put("heap_committed_mb", heap.committedKb() / 1024);
      row.put("rss_mb", rss < 0 ? null : rss >> 20);
      row.put("peak_rss_mb", peak < 0 ? null : peak >> 20);
      row.put("max_heap", p.proc().heap());
      rows.add(row);
      System.out.printf(Locale.ROOT, "%-18s %8d %22d %20d %10s %15s %6s%n", p.proc().name(), pid, heap.usedKb() / 1024, heap.committedKb() / 1024,
          rss < 0 ? "-" : Long.toString(rss >> 20), peak < 0 ? "-" : Long.toString(peak >> 20),
          p.proc().heap().replace("-Xmx", ""));
    }
    if (json != null) {
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), Map.of("processes", rows));
      System.out.println("figures written to " + json);
    }
    return 0;
  }

  /** Runs one jcmd command against a process; its output, or an error naming the command and process. */
  private static String run(Path jcmd, long pid, String command) throws IOException, InterruptedException {
    Process proc = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
    byte[] out = proc.getInputStream().readAllBytes();
    if (!proc.waitFor(60, TimeUnit.SECONDS) || proc.exitValue() != 0) {
      proc.destroyForcibly();
      throw new IllegalStateException("jcmd " + pid + " " + command + " failed: " + new String(out, StandardCharsets.UTF_8).strip());
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** A size field (VmRSS, VmHWM) of {@code /proc/<process>/status} in bytes ({@code self}: this JVM); -1 where there is none. */
  static long procStatusBytes(String process, String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", process, "status"))) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
