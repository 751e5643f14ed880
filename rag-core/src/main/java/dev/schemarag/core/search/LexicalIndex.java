package dev.schemarag.core.search;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Identifiers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/** BM25 (Lucene) over chunk texts, one in-memory index per loaded schema. Immutable once built. */
public final class LexicalIndex {

  /** A lexical hit: the BM25 score of one chunk. */
  public record Hit(String chunkId, String table, ChunkKind kind, Optional<String> subject, double score) {}

  private static final String TEXT = "text";
  private final Analyzer analyzer = new SchemaAnalyzer();
  private final IndexSearcher searcher;
  /** Documents by ordinal; a hit finds its document through the "ord" doc value, not stored fields. */
  private final List<Doc> docs;

  /** One indexed text: a chunk, or a group of tables (a module) under the kind "module". */
  public record Doc(String id, String table, String kind, Optional<String> subject, String text) {}

  /** The kind under which module documents are indexed. */
  public static final String MODULE = "module";

  public LexicalIndex(List<Chunk> chunks, double k1, double b) {
    this(chunks.stream().map(c -> new Doc(c.id(), c.table(), c.kind().label(), c.subject(), indexText(c))).toList(), k1, b, true);
  }

  private LexicalIndex(List<Doc> docs, double k1, double b, boolean unused) {
    this.docs = List.copyOf(docs);
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    BM25Similarity similarity = new BM25Similarity((float) k1, (float) b);
    try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer).setSimilarity(similarity))) {
      for (int i = 0; i < docs.size(); i++) {
        Doc c = docs.get(i);
        Document d = new Document();
        d.add(new NumericDocValuesField("ord", i));
        d.add(new StringField("kind", c.kind(), Field.Store.NO));
        d.add(new TextField(TEXT, c.text(), Field.Store.NO));
        w.addDocument(d);
      }
      w.commit();
      searcher = new IndexSearcher(DirectoryReader.open(dir));
      searcher.setSimilarity(similarity);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the lexical index", e);
    }
  }

  /** An index over arbitrary documents (module texts). */
  public static LexicalIndex of(List<Doc> docs, double k1, double b) {
    return new LexicalIndex(docs, k1, b, true);
  }

  /** The embed text plus the identifiers' words (a column named {@code dob} is found as "dob"). */
  private static String indexText(Chunk c) {
    StringBuilder sb = new StringBuilder(c.embedText());
    c.subject().ifPresent(s -> sb.append(' ').append(Identifiers.readable(s)));
    return sb.toString();
  }

  /** Top chunks of one kind for a question; BM25 scores, highest first. */
  public List<Hit> search(String question, ChunkKind kind, int limit) {
    return search(question, kind.label(), limit).stream()
        .map(h -> new Hit(h.chunkId(), h.table(), kind, h.subject(), h.score())).toList();
  }

  /** Raw hits of one indexed kind (chunk kinds, or {@link #MODULE}). */
  public List<Hit> search(String question, String kind, int limit) {
    Set<String> terms = analyze(question);
    if (terms.isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder text = new BooleanQuery.Builder();
    terms.forEach(t -> text.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD));
    BooleanQuery q = new BooleanQuery.Builder()
        .add(text.build(), BooleanClause.Occur.MUST)
        .add(new TermQuery(new Term("kind", kind)), BooleanClause.Occur.FILTER)
        .build();
    try {
      ScoreDoc[] hits = searcher.search(q, limit).scoreDocs;
      List<Hit> out = new ArrayList<>(hits.length);
      for (ScoreDoc sd : hits) {
        Doc d = docs.get(ordinal(sd.doc));
        out.add(new Hit(d.id(), d.table(), null, d.subject(), sd.score));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int ordinal(int docId) throws IOException {
    var leaves = searcher.getIndexReader().leaves();
    var leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(docId, leaves));
    var values = leaf.reader().getNumericDocValues("ord");
    if (values == null || !values.advanceExact(docId - leaf.docBase)) {
      throw new IllegalStateException("lexical document " + docId + " has no ordinal");
    }
    return (int) values.longValue();
  }

  Set<String> analyze(String text) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream(TEXT, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
