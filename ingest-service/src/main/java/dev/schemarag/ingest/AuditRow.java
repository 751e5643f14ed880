package dev.schemarag.ingest;

import java.util.Optional;

/**
 * One row of the monitored database's DDL audit table, as Debezium delivers it.
 *
 * @param previousIdentity the relation's identity before this command when the command renamed or
 *     moved it (the trigger keeps the last known name per relation oid)
 * @param commitTsMs commit time of the transaction that wrote the row (the DDL's commit)
 */
public record AuditRow(long eventId, String phase, String commandTag, Optional<String> objectType, Optional<String> schemaName,
                       Optional<String> objectIdentity, Optional<String> previousIdentity, Optional<String> statement,
                       Optional<Long> txid, long executedAtMs, Optional<Long> commitTsMs) {

  public static final String DDL_COMMAND_END = "ddl_command_end";
  public static final String SQL_DROP = "sql_drop";

  public boolean isDrop() {
    return SQL_DROP.equals(phase);
  }
}
