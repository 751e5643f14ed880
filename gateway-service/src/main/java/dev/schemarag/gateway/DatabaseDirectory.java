package dev.schemarag.gateway;

import dev.schemarag.core.access.AccessPolicy;
import dev.schemarag.core.config.SchemaragConfig;
import dev.schemarag.core.config.SourceDatabase;
import dev.schemarag.core.config.SourceDatabases;
import dev.schemarag.core.schema.Column;
import dev.schemarag.core.schema.ForeignKey;
import dev.schemarag.core.schema.SchemaModel;
import dev.schemarag.core.schema.Table;
import dev.schemarag.core.source.PgCatalogReader;
import dev.schemarag.core.store.ConnectionSource;
import dev.schemarag.core.store.PgPrivileges;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The databases the gateway asks about (the configured sources: ids and schemas, as the query
 * service has them), and their tables as the live PostgreSQL catalog describes them, for
 * {@code describe_table}. The catalog is read when asked, so a migration shows at once; without a
 * URL tables cannot be described. The first database is the default of a request that names none.
 */
public final class DatabaseDirectory {

  /** One database: its id, indexed schemas and catalog connection (empty without a URL). */
  public record Source(String id, List<String> schemas, Optional<ConnectionSource> catalog) {
    public Source {
      schemas = List.copyOf(schemas);
    }
  }

  /** Replaced as a whole when sources are added or removed at runtime. */
  private volatile List<Source> sources;
  private final AccessPolicy policy;

  /** @param policy the query service's access policy: a principal is shown only what its role may read */
  public DatabaseDirectory(String databaseId, List<String> schemas, Optional<ConnectionSource> catalog, AccessPolicy policy) {
    this(List.of(new Source(databaseId, schemas, catalog)), policy);
  }

  /** @param sources at least one; the first is the default */
  public DatabaseDirectory(List<Source> sources, AccessPolicy policy) {
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("a database directory needs at least one database");
    }
    this.sources = List.copyOf(sources);
    this.policy = policy;
  }

  /** The sources of the configuration ({@code sources}, else {@code database.id} at {@code db.url}). */
  public static DatabaseDirectory of(SchemaragConfig config) {
    return new DatabaseDirectory(sourcesOf(SourceDatabases.of(config)), AccessPolicy.from(config));
  }

  private static List<Source> sourcesOf(List<SourceDatabase> databases) {
    return databases.stream().map(s -> new Source(s.id(), s.schemas(),
        Optional.of(s.url()).filter(u -> !u.isBlank()).map(u -> ConnectionSource.of(u, s.user(), s.password())))).toList();
  }

  /** From now on these are the databases: a source added or removed at runtime (the configuration re-read). */
  public void apply(List<SourceDatabase> databases) {
    if (databases.isEmpty()) {
      throw new IllegalArgumentException("a database directory needs at least one database");
    }
    sources = sourcesOf(databases);
  }

  public String defaultId() {
    return sources.get(0).id();
  }

  /** The ids of the databases, the default first. */
  public List<String> ids() {
    return sources.stream().map(Source::id).toList();
  }

  /** The database a request names, or the default; an unknown one is a 404 problem naming the known ones. */
  public String resolve(Optional<String> requested) {
    return source(requested).id();
  }

  private Source source(Optional<String> requested) {
    List<Source> sources = this.sources;
    String id = requested.orElse(sources.get(0).id());
    return sources.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow(() -> Problem.of(404, "unknown_database",
        "Unknown database", "unknown database '" + id + "': this gateway answers for " + String.join(", ",
            sources.stream().map(s -> "'" + s.id() + "'").toList()) + " (GET /api/v1/databases lists them)")
        .with("error_class", "unknown_database").raise());
  }

  /** @param principal who asks, as the gateway names it ({@code name} or {@code name/group/…}; null = the default principal) */
  public List<Map<String, Object>> list(String principal) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Source s : sources) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("database_id", s.id());
      d.put("schemas", s.schemas());
      s.catalog().ifPresent(c -> {
        try {
          d.put("tables", read(s, principal).size());
        } catch (SQLException e) {
          d.put("tables_error", e.getMessage());
        }
      });
      out.add(d);
    }
    return out;
  }

  /** The catalog as the principal's role sees it: what it may not read is not there, exactly as if it did not exist. */
  private SchemaModel read(Source source, String principal) throws SQLException {
    ConnectionSource catalog = source.catalog().orElseThrow();
    List<String> schemas = source.schemas();
    SchemaModel all = new PgCatalogReader(catalog).read(source.id(), schemas);
    List<String> parts = principal == null ? List.of() : List.of(principal.split("/"));
    AccessPolicy.Decision d = policy.decide(parts.stream().findFirst(), parts.size() > 1 ? parts.subList(1, parts.size()) : List.of());
    if (d instanceof AccessPolicy.Refused r) {
      throw Problem.of(403, "unknown_principal", "Unknown principal", r.message()).with("error_class", "unknown_principal").raise();
    }
    if (d instanceof AccessPolicy.AsRole a) {
      return PgPrivileges.view(catalog, a.role(), schemas).restrict(all);
    }
    return all;
  }

  /** One table's columns, types, comments and foreign keys, from the catalog. */
  public Map<String, Object> describe(Optional<String> database, String tableName, String principal) {
    Source source = source(database);
    if (tableName == null || tableName.isBlank()) {
      throw QuestionInput.invalid("missing-field", "Missing argument", "the argument 'table' is required (e.g. sales.orders)");
    }
    if (source.catalog().isEmpty()) {
      throw Problem.of(503, "catalog-unavailable", "Catalog unavailable",
          "this gateway has no db.url, so it cannot read the catalog to describe tables").raise();
    }
    SchemaModel model;
    try {
      model = read(source, principal);
    } catch (SQLException e) {
      throw Problem.of(503, "catalog-unavailable", "Catalog unavailable", "reading the catalog failed: " + e.getMessage()).raise();
    }
    Table t = find(model, tableName.strip()).orElseThrow(() -> Problem.of(404, "unknown-table", "Unknown table",
        "no table '" + tableName.strip() + "' in database '" + source.id() + "' (schemas " + String.join(", ", source.schemas()) + ")")
        .raise());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("database_id", source.id());
    out.put("table", t.name());
    out.put("comment", t.comment().orElse(null));
    List<Map<String, Object>> cols = new ArrayList<>();
    for (Column c : t.columns()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", c.name());
      m.put("type", c.type());
      m.put("nullable", c.nullable());
      m.put("primary_key", c.primaryKey());
      m.put("default", c.defaultValue().orElse(null));
      m.put("comment", c.comment().orElse(null));
      m.put("references", c.references().orElse(null));
      cols.add(m);
    }
    out.put("columns", cols);
    out.put("foreign_keys", model.outgoing(t.name()).stream().map(DatabaseDirectory::fk).toList());
    out.put("referenced_by", model.incoming(t.name()).stream().map(DatabaseDirectory::fk).toList());
    return out;
  }

  private static Map<String, Object> fk(ForeignKey f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("from_table", f.fromTable());
    m.put("from_columns", f.fromColumns());
    m.put("to_table", f.toTable());
    m.put("to_columns", f.toColumns());
    m.put("join", f.joinCondition());
    return m;
  }

  /** By its model name ({@code schema.table}, bare for public), else by a unique unqualified name, case-insensitively. */
  static Optional<Table> find(SchemaModel model, String name) {
    Optional<Table> exact = model.table(name);
    if (exact.isPresent()) {
      return exact;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    String bare = lower.startsWith("public.") ? lower.substring("public.".length()) : lower;
    List<Table> hits = model.tables().stream().filter(t -> {
      String n = t.name().toLowerCase(Locale.ROOT);
      return n.equals(bare) || n.endsWith("." + bare);
    }).toList();
    return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
  }

  /** A description as text a model reads well. */
  @SuppressWarnings("unchecked")
  static String describeText(Map<String, Object> d) {
    StringBuilder sb = new StringBuilder();
    sb.append("Table ").append(d.get("table"));
    if (d.get("comment") != null) {
      sb.append(" -- ").append(d.get("comment"));
    }
    sb.append("\nColumns:\n");
    for (Map<String, Object> c : (List<Map<String, Object>>) d.get("columns")) {
      sb.append("  ").append(c.get("name")).append(' ').append(c.get("type"));
      if (Boolean.TRUE.equals(c.get("primary_key"))) {
        sb.append(" PRIMARY KEY");
      }
      if (Boolean.FALSE.equals(c.get("nullable"))) {
        sb.append(" NOT NULL");
      }
      if (c.get("references") != null) {
        sb.append(" REFERENCES ").append(c.get("references"));
      }
      if (c.get("comment") != null) {
        sb.append(" -- ").append(c.get("comment"));
      }
      sb.append('\n');
    }
    List<Map<String, Object>> out = (List<Map<String, Object>>) d.get("foreign_keys");
    List<Map<String, Object>> in = (List<Map<String, Object>>) d.get("referenced_by");
    if (!out.isEmpty() || !in.isEmpty()) {
      sb.append("Joins:\n");
      out.forEach(f -> sb.append("  ").append(f.get("join")).append('\n'));
      in.forEach(f -> sb.append("  ").append(f.get("join")).append(" (referenced by ").append(f.get("from_table")).append(")\n"));
    }
    return sb.toString();
  }
}
