/** query-service: question events to guarded, read-only SQL answers and classified failures. */
package dev.schemarag.query;
