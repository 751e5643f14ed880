package dev.schemarag.cli;

import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaJsonLoader;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Tables of schemas a user gives (the benchmark JSON format: public enterprise schemas, say) to stand
 * beside the benchmarks in {@code eval}, {@code fit-selector} and {@code bench scale}, where generated ones
 * stood alone before. Whole modules are taken, in a
 * seeded order, as long as they fit: a module cut in half would be a schema no one has, and the
 * look-alikes that push a benchmark's tables out come in whole modules too.
 */
final class DistractorSchemas {
  private DistractorSchemas() {}

  /**
   * {@code base} with {@code tables} distractor tables beside it, as one model of its database: the whole modules of
   * the schema files that fit (see {@link #take}), then generated modules ({@link EnterpriseSchemaGenerator}) for the rest.
   *
   * @param reservedModules the modules {@code base} already uses
   */
  static Beside beside(SchemaModel base, List<Path> files, long seed, int tables, Set<String> reservedModules) throws IOException {
    List<SchemaModel> given = load(files);
    SchemaModel taken = take(base.databaseId(), given, tables, seed, reservedModules);
    Set<String> reserved = new HashSet<>(reservedModules);
    taken.tables().forEach(t -> reserved.add(t.module().orElseThrow()));
    return new Beside(EnterpriseSchemaGenerator.beside(merged(base, taken), base.databaseId(), seed, tables - taken.size(), reserved),
        taken.size());
  }

  /**
   * {@code base} with every table of the schema files beside it, as one model of its database ({@code eval
   * --distractor-schemas}): the same refusals as {@link #take}, no generated tables.
   */
  static SchemaModel all(SchemaModel base, List<Path> files) throws IOException {
    List<SchemaModel> given = load(files);
    Set<String> reserved = new HashSet<>();
    base.tables().forEach(t -> reserved.add(t.module().orElse(t.name())));
    return merged(base, take(base.databaseId(), given, Integer.MAX_VALUE, 0, reserved));
  }

  /** {@code base}'s tables and keys, then {@code taken}'s, as one model of {@code base}'s database. */
  private static SchemaModel merged(SchemaModel base, SchemaModel taken) {
    List<Table> tables = new ArrayList<>(base.tables());
    tables.addAll(taken.tables());
    List<ForeignKey> keys = new ArrayList<>(base.foreignKeys());
    keys.addAll(taken.foreignKeys());
    return new SchemaModel(base.databaseId(), tables, keys);
  }

  /**
   * The schema files {@code given} names: a file as it is, a folder as its {@code .json} and {@code .json.gz} files
   * in name order (data/bench/public-schemas, say). A path that does not exist, or a folder with no such file, is refused by name.
   */
  static List<Path> files(List<Path> given) {
    List<Path> out = new ArrayList<>();
    for (Path p : given) {
      if (!Files.isDirectory(p)) {
        out.add(InputFiles.existing("distractor schema file", p));
        continue;
      }
      List<Path> inside;
      try (Stream<Path> listed = Files.list(p)) {
        inside = listed.filter(f -> Files.isRegularFile(f) && SCHEMA_FILE.matcher(f.getFileName().toString()).matches()).sorted().toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list distractor schema folder " + p + ": " + e.getMessage(), e);
      }
      if (inside.isEmpty()) {
        throw new IllegalArgumentException("distractor schema folder " + p + " holds no .json or .json.gz file");
      }
      out.addAll(inside);
    }
    return List.copyOf(out);
  }

  private static final Pattern SCHEMA_FILE = Pattern.compile(".*\\.json(\\.gz)?");

  private static List<SchemaModel> load(List<Path> files) throws IOException {
    List<SchemaModel> given = new ArrayList<>();
    for (Path file : files(files)) {
      given.add(SchemaJsonLoader.load(file));
    }
    return given;
  }

  /** The schema with its distractors, and how many of them came from the given files (the rest are generated). */
  record Beside(SchemaModel model, int givenTables) {}

  /**
   * Whole modules of {@code sources} (each table's module; one without a module is refused), in an order
   * shuffled by {@code seed}, each taken when it fits within {@code limit} tables; the foreign keys among the
   * taken tables. A module whose schema name (lower case) is among {@code reservedModules}, or that two sources
   * both hold, is refused by name: it would be loaded over another.
   */
  static SchemaModel take(String databaseId, List<SchemaModel> sources, int limit, long seed, Set<String> reservedModules) {
    if (limit < 0) {
      throw new IllegalArgumentException("the distractor tables must be 0 or more, not " + limit);
    }
    Set<String> reserved = new HashSet<>();
    reservedModules.forEach(r -> reserved.add(r.toLowerCase(Locale.ROOT)));
    Map<String, List<Table>> modules = new LinkedHashMap<>();
    Map<String, String> sourceOf = new LinkedHashMap<>();
    List<ForeignKey> keys = new ArrayList<>();
    for (SchemaModel source : sources) {
      Set<String> own = new HashSet<>();
      for (Table t : source.tables()) {
        String module = t.module().orElseThrow(() -> new IllegalArgumentException(
            "distractor table " + t.name() + " of " + source.databaseId() + " has no db_id: its module becomes its schema"));
        String schema = module.toLowerCase(Locale.ROOT);
        if (reserved.contains(schema)) {
          throw new IllegalArgumentException("distractor module '" + module + "' of " + source.databaseId()
              + " has the name of a benchmark schema: rename it");
        }
        String earlier = sourceOf.putIfAbsent(schema, source.databaseId());
        if (earlier != null && !own.contains(schema)) {
          throw new IllegalArgumentException("distractor module '" + module + "' is in both " + earlier + " and " + source.databaseId());
        }
        own.add(schema);
        modules.computeIfAbsent(schema, m -> new ArrayList<>()).add(t);
      }
      keys.addAll(source.foreignKeys());
    }
    List<String> order = new ArrayList<>(modules.keySet());
    Collections.shuffle(order, new Random(seed));
    List<Table> taken = new ArrayList<>();
    for (String module : order) {
      List<Table> tables = modules.get(module);
      if (taken.size() + tables.size() <= limit) {
        taken.addAll(tables);
      }
    }
    Set<String> names = new HashSet<>();
    taken.forEach(t -> names.add(t.name()));
    List<ForeignKey> within = keys.stream().filter(k -> names.contains(k.fromTable()) && names.contains(k.toTable())).toList();
    return new SchemaModel(databaseId, taken, within);
  }
}
