package dev.schemarag.cli;

import picocli.CommandLine.Command;

/** {@code ./schemarag bench ...}: benchmarks that print figures. */
@Command(name = "bench", description = "Benchmarks that print figures.", subcommands = {FreshnessBench.class, AnswerBench.class, IndexBench.class, GatewayBench.class, ScaleBench.class, ChaosBench.class, MemoryBench.class})
final class BenchCommand {
}
