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
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** The list of every top-level event contract (keys and values). */
public final class Contracts {
  private Contracts() {}

  public static final List<Class<? extends SpecificRecord>> ALL = List.of(
      DatabaseKey.class, TableKey.class, DdlEvent.class, TableSnapshot.class,
      DocFileKey.class, DocFile.class,
      IndexUpdate.class,
      QueryKey.class, QuestionRequested.class, QueryAnswered.class, QueryFailed.class, ExamRecord.class);
}
