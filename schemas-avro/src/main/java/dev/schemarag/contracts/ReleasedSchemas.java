package dev.schemarag.contracts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.SchemaStore;

/**
 * Every released version of every contract, shipped inside this module: the schema store that
 * single-object decoding resolves old writers' fingerprints against. A version, once released,
 * is never edited; a change adds {@code Name.vN+1.avsc} and a line to {@code INDEX}.
 */
public final class ReleasedSchemas implements SchemaStore {

  private static final String ROOT = "/dev/schemarag/contracts/released/";
  private static final Pattern FILE = Pattern.compile("(.+)/([A-Za-z0-9_]+)\\.v(\\d+)\\.avsc");

  /** One released version of one contract. */
  public record Version(String fullName, int version, Schema schema) {}

  private final Map<String, List<Version>> byName = new HashMap<>();
  private final Map<Long, Schema> byFingerprint = new HashMap<>();

  private ReleasedSchemas(List<Version> versions) {
    for (Version v : versions) {
      byName.computeIfAbsent(v.fullName(), k -> new ArrayList<>()).add(v);
      byFingerprint.put(SchemaNormalization.parsingFingerprint64(v.schema()), v.schema());
    }
    byName.values().forEach(l -> l.sort(Comparator.comparingInt(Version::version)));
  }

  private static final class Holder {
    static final ReleasedSchemas INSTANCE = load();
  }

  /** The released schemas on the classpath (loaded once; immutable). */
  public static ReleasedSchemas get() {
    return Holder.INSTANCE;
  }

  private static ReleasedSchemas load() {
    List<Version> versions = new ArrayList<>();
    for (String file : readLines(ROOT + "INDEX")) {
      Matcher m = FILE.matcher(file);
      if (!m.matches()) {
        throw new IllegalStateException("released schema INDEX line is not <namespace path>/<Name>.v<N>.avsc: " + file);
      }
      String namespace = m.group(1).replace('/', '.');
      String fullName = namespace + "." + m.group(2);
      Schema schema;
      try (InputStream in = resource(ROOT + file)) {
        schema = new Schema.Parser().parse(in);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read released schema " + file, e);
      }
      if (!schema.getFullName().equals(fullName)) {
        throw new IllegalStateException("released schema " + file + " declares " + schema.getFullName()
            + ": the namespace must match its folder");
      }
      versions.add(new Version(fullName, Integer.parseInt(m.group(3)), schema));
    }
    return new ReleasedSchemas(versions);
  }

  private static InputStream resource(String path) {
    InputStream in = ReleasedSchemas.class.getResourceAsStream(path);
    if (in == null) {
      throw new IllegalStateException("missing resource " + path);
    }
    return in;
  }

  private static List<String> readLines(String path) {
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(resource(path), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.isBlank() && !line.startsWith("#")) {
          lines.add(line.trim());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  /** Released versions of one contract, oldest first; empty when never released. */
  public List<Version> versions(String fullName) {
    return List.copyOf(byName.getOrDefault(fullName, List.of()));
  }

  @Override
  public Schema findByFingerprint(long fingerprint) {
    return byFingerprint.get(fingerprint);
  }
}
