package dev.schemarag.contracts;

import dev.schemarag.events.catalog.DatabaseKey;
import dev.schemarag.events.catalog.DdlEvent;
import dev.schemarag.events.catalog.TableKey;
import dev.schemarag.events.catalog.TableSnapshot;
import dev.schemarag.events.docs.DocFile;
import dev.schemarag.events.docs.DocFileKey;
import dev.schemarag.events.index.IndexUpdate;
import dev.schemarag.events.nlq.ExamRecord;
import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import dev.schemarag.events.nlq.QueryKey;
import dev.schemarag.events.nlq.QuestionRequested;
import java.util.Map;

/** Expected key/value classes per default topic name: what the catalog must declare. */
final class TopicTypes {
  private TopicTypes() {}

  private static final Map<String, Class<?>[]> TYPES = Map.of(
      "schemarag.catalog.ddl", new Class<?>[] {DatabaseKey.class, DdlEvent.class},
      "schemarag.catalog.tables", new Class<?>[] {TableKey.class, TableSnapshot.class},
      "schemarag.docs.files", new Class<?>[] {DocFileKey.class, DocFile.class},
      "schemarag.index.events", new Class<?>[] {TableKey.class, IndexUpdate.class},
      "schemarag.index.docs-by-table", new Class<?>[] {TableKey.class, DocFile.class},
      "schemarag.nlq.requests", new Class<?>[] {QueryKey.class, QuestionRequested.class},
      "schemarag.nlq.results", new Class<?>[] {QueryKey.class, QueryAnswered.class},
      "schemarag.nlq.failures", new Class<?>[] {QueryKey.class, QueryFailed.class},
      "schemarag.nlq.audit", new Class<?>[] {QueryKey.class, ExamRecord.class});

  static Class<?> of(String topic, boolean key) {
    Class<?>[] kv = TYPES.get(topic);
    if (kv == null) {
      throw new AssertionError("unexpected topic " + topic);
    }
    return key ? kv[0] : kv[1];
  }
}
