package dev.schemarag.core.config;

import java.nio.file.Path;
import java.util.List;

/**
 * One monitored source database as configuration describes it: its id (the database id of its
 * events, chunks and questions), where to reach it, what to index and how ingest captures it.
 *
 * @param url JDBC URL; blank only for the single default source before the embedded default supplies one
 * @param docsRoot the folder holding {@code <id>/docs/*.md}
 * @param slot the logical replication slot of its DDL capture (unique in its cluster)
 * @param publication the publication of its DDL audit table (lives in the source database)
 */
public record SourceDatabase(String id, String url, String user, String password, List<String> schemas, Path docsRoot,
                             String slot, String publication) {

  public SourceDatabase {
    schemas = List.copyOf(schemas);
  }

  /** The watched docs folder: {@code <docs.root>/<id>/docs}. */
  public Path docsDir() {
    return docsRoot.resolve(id).resolve("docs");
  }
}
