/** ingest-service: Debezium embedded capture of DDL and COMMENT changes, catalog snapshots, doc-file watcher. */
package dev.schemarag.ingest;
