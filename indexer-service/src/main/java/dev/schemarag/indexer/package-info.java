/** indexer-service: the Kafka Streams topology from snapshots and docs to chunks in pgvector. */
package dev.schemarag.indexer;
