package dev.schemarag.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The CPU time of what shares the cores with the embedding model while a bench indexes: this JVM
 * (its JIT compiler threads apart), the Kafka broker process and the PostgreSQL cluster, read
 * before and after. The model gets what they leave of the cores, so this says where the model's
 * rate inside the pipeline went. Other processes are read from {@code /proc} (Linux); where there is
 * none they read 0.
 */
final class CpuTimes {
  private CpuTimes() {}

  /** Linux's clock ticks per second in {@code /proc/PID/stat} (USER_HZ, 100 on every architecture it runs on). */
  private static final double TICKS = 100;

  /** CPU seconds of each, at one moment. */
  record Sample(long nanos, double jvm, double jit, double broker, double postgres) {}

  static Sample sample(OptionalLong brokerPid, OptionalLong postgresPid) {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return new Sample(System.nanoTime(), os.getProcessCpuTime() / 1e9, compilerThreads(),
        brokerPid.isPresent() ? seconds(brokerPid.getAsLong(), false) : 0, postgresPid.isPresent() ? tree(postgresPid.getAsLong()) : 0);
  }

  /** What each used between two samples, against the core seconds the machine had. */
  static Map<String, Object> between(Sample from, Sample to) {
    double wall = (to.nanos() - from.nanos()) / 1e9;
    int cores = Runtime.getRuntime().availableProcessors();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("wall_s", round1(wall));
    out.put("cores", cores);
    out.put("core_s", round1(wall * cores));
    out.put("this_jvm_s", round1(to.jvm() - from.jvm()));
    out.put("of_which_jit_compilers_s", round1(to.jit() - from.jit()));
    out.put("kafka_broker_s", round1(to.broker() - from.broker()));
    out.put("postgresql_s", round1(to.postgres() - from.postgres()));
    double used = (to.jvm() - from.jvm()) + (to.broker() - from.broker()) + (to.postgres() - from.postgres());
    out.put("left_s", round1(wall * cores - used));
    return out;
  }

  static String line(Map<String, Object> cpu) {
    return String.format(Locale.ROOT, "CPU from the pipeline's start to the last table (%s s on %s cores, %s core-seconds):"
            + " this JVM %s s (its JIT compiler threads %s s), the Kafka broker %s s, PostgreSQL %s s; %s s left to anything else"
            + " or unused", cpu.get("wall_s"), cpu.get("cores"), cpu.get("core_s"), cpu.get("this_jvm_s"), cpu.get("of_which_jit_compilers_s"),
        cpu.get("kafka_broker_s"), cpu.get("postgresql_s"), cpu.get("left_s"));
  }

  /**
   * The CPU time of this JVM's JIT compiler threads ({@code C1/C2 CompilerThread}), from {@code
   * /proc/self/task}: the compilation bean's time is elapsed time, which counts a compiler waiting
   * for a core as well. A compiler thread the JVM ended takes its time with it.
   */
  private static double compilerThreads() {
    double total = 0;
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String comm = Files.readString(task.resolve("comm"));
          if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            total += ticks(Files.readString(task.resolve("stat")), false) / TICKS;
          }
        } catch (IOException | RuntimeException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return total;
  }

  /**
   * A process and its live descendants; for the process itself also its reaped children's time (a
   * PostgreSQL backend that ended is counted in its postmaster's).
   */
  private static double tree(long pid) {
    double total = seconds(pid, true);
    total += ProcessHandle.of(pid).map(h -> h.descendants().mapToDouble(d -> seconds(d.pid(), false)).sum()).orElse(0.0);
    return total;
  }

  /** User and system time of one process from {@code /proc/PID/stat}, with its reaped children's when asked; 0 when unreadable. */
  private static double seconds(long pid, boolean withChildren) {
    try {
      return ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")), withChildren) / TICKS;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** User and system clock ticks of a {@code stat} line, with the reaped children's when asked. */
  private static long ticks(String stat, boolean withChildren) {
    // The command name may hold spaces and parentheses: the fields are counted from the last ')'.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    if (withChildren) {
      ticks += Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }
    return ticks;
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
