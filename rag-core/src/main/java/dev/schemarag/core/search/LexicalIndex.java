package dev.schemarag.core.search;

import dev.schemarag.core.chunk.Chunk;
import dev.schemarag.core.chunk.ChunkKind;
import dev.schemarag.core.chunk.Identifiers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.spell.DirectSpellChecker;
import org.apache.lucene.search.spell.SuggestMode;
import org.apache.lucene.search.spell.SuggestWord;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;

/**
 * BM25 (Lucene) over chunk texts, one in-memory index per loaded schema. Each instance is an
 * immutable point-in-time view; {@link #withTables} gives the next one by replacing the documents of
 * a few tables (delete by table, add, near-real-time reopen), so an update costs what those tables
 * cost, not the whole schema.
 *
 * <p>Scores are those of an index built from scratch over the same documents: Lucene's own term
 * and collection statistics count deleted documents until a merge drops them, so this index keeps
 * the live statistics itself, and hits of equal score are ordered by document id, not by the order
 * they were added in.
 */
public final class LexicalIndex {

  /** A lexical hit: the BM25 score of one chunk. */
  public record Hit(String chunkId, String table, ChunkKind kind, Optional<String> subject, double score) {}

  private static final String TEXT = "text";
  /** The text's words as written (lower case, not stemmed): what a misspelt question word is matched against. */
  private static final String WORDS = "words";
  private static final FieldType WORDS_TYPE = wordsType();
  private static final String TABLE = "table";
  private static final String ID = "id";
  /** The table and subject of a document, as doc values: a hit needs no stored fields. */
  private static final String REF = "ref";
  /**
   * Equal scores in chunk id order, whatever the documents' order in the index. The id is read as a
   * binary doc value ({@code STRING_VAL}): sorted doc values' ords would cost a decompressed block of
   * their terms for every competitive hit (a quarter of the lexical search at 10,000 tables).
   */
  private static final Sort BY_SCORE_THEN_ID = new Sort(SortField.FIELD_SCORE, new SortField(ID, SortField.Type.STRING_VAL));

  /** One indexed text: a chunk, or a group of tables (a module) under the kind "module". */
  public record Doc(String id, String table, String kind, Optional<String> subject, String text) {}

  /** The kind under which module documents are indexed. */
  public static final String MODULE = "module";

  /** What the index statistics say of some documents of the text field: how many have a term, their terms, their distinct terms. */
  private record Counts(long docs, long terms, long distinctTerms) {
    static final Counts NONE = new Counts(0, 0, 0);

    Counts plus(Counts o) {
      return new Counts(docs + o.docs, terms + o.terms, distinctTerms + o.distinctTerms);
    }

    Counts minus(Counts o) {
      return new Counts(docs - o.docs, terms - o.terms, distinctTerms - o.distinctTerms);
    }
  }

  /** The writer every version of one index shares, which version it holds now, and the readers of replaced versions. */
  private static final class Shared {
    final Analyzer analyzer = new SchemaAnalyzer();
    final BM25Similarity similarity;
    final IndexWriter writer;
    final AtomicLong latest = new AtomicLong();
    final long graceMs;
    private final java.util.ArrayDeque<Retired> retired = new java.util.ArrayDeque<>();

    private record Retired(DirectoryReader reader, long atMs) {}

    Shared(double k1, double b, long graceMs) throws IOException {
      this.similarity = new BM25Similarity((float) k1, (float) b);
      // In memory a compound file saves no file handles, only costs a copy of every small segment an update flushes.
      Analyzer perField = new PerFieldAnalyzerWrapper(analyzer, Map.of(WORDS, SchemaAnalyzer.words()));
      // Each file as one buffer once written: Lucene slices and clones a file's input for every search and
      // doc-values read, and a file kept as many small blocks made each of those copy a view of every block.
      this.writer = new IndexWriter(new ByteBuffersDirectory(new SingleInstanceLockFactory(), ByteBuffersDataOutput::new,
          ByteBuffersDirectory.OUTPUT_AS_ONE_BUFFER),
          new IndexWriterConfig(perField).setSimilarity(similarity).setUseCompoundFile(false));
      this.graceMs = graceMs;
    }

    /** A replaced version's reader; those replaced longer ago than the grace are closed now, so merged-away segments are freed. */
    void retire(DirectoryReader reader) throws IOException {
      long now = System.currentTimeMillis();
      retired.add(new Retired(reader, now));
      while (!retired.isEmpty() && retired.peek().atMs() + graceMs <= now) {
        retired.poll().reader().close();
      }
    }
  }

  private final Shared shared;
  private final long generation;
  private final IndexSearcher searcher;
  /** Live statistics of the text field, and each table's share of them. */
  private final Counts total;
  private final PMap<String, Counts> byTable;

  public LexicalIndex(List<Chunk> chunks, double k1, double b) {
    this(docsOf(chunks), k1, b, RETIRED_READER_GRACE_MS);
  }

  private LexicalIndex(List<Doc> docs, double k1, double b, long graceMs) {
    try {
      this.shared = new Shared(k1, b, graceMs);
      Map<String, Counts> counts = new HashMap<>();
      Counts sum = Counts.NONE;
      for (Doc d : docs) {
        Counts c = counts(shared.analyzer, d.text());
        counts.merge(d.table(), c, Counts::plus);
        sum = sum.plus(c);
        shared.writer.addDocument(document(d));
      }
      this.generation = 0;
      this.total = sum;
      this.byTable = HashTreePMap.from(counts);
      this.searcher = searcher(DirectoryReader.open(shared.writer));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the lexical index", e);
    }
  }

  private LexicalIndex(Shared shared, long generation, IndexReader reader, Counts total, PMap<String, Counts> byTable) {
    this.shared = shared;
    this.generation = generation;
    this.total = total;
    this.byTable = byTable;
    this.searcher = searcher(reader);
  }

  /** An index over arbitrary documents (module texts). */
  public static LexicalIndex of(List<Doc> docs, double k1, double b) {
    return new LexicalIndex(docs, k1, b, RETIRED_READER_GRACE_MS);
  }

  /** An index whose replaced versions stop answering {@code graceMs} after they were replaced (tests). */
  static LexicalIndex of(List<Doc> docs, double k1, double b, long graceMs) {
    return new LexicalIndex(docs, k1, b, graceMs);
  }

  /** The bytes its directory holds: the segments of every version still open (diagnostics, tests). */
  long directoryBytes() throws IOException {
    long total = 0;
    for (String f : shared.writer.getDirectory().listAll()) {
      total += shared.writer.getDirectory().fileLength(f);
    }
    return total;
  }

  /** The documents of chunks, as this index keeps them. */
  public static List<Doc> docsOf(Collection<Chunk> chunks) {
    return chunks.stream().map(c -> new Doc(c.id(), c.table(), c.kind().label(), c.subject(), indexText(c))).toList();
  }

  /**
   * The next version: every document of the given tables replaced by the given ones (none: the
   * table's documents are gone). This version still answers as it did. Only the newest version
   * can be updated: they share one writer.
   *
   * @param replacements per table (the {@link Doc#table()} of its documents), its documents now
   */
  public LexicalIndex withTables(Map<String, List<Doc>> replacements) {
    synchronized (shared) {
      if (shared.latest.get() != generation) {
        throw new IllegalStateException("only the newest version of a lexical index can be updated (this is "
            + generation + ", the newest " + shared.latest.get() + ")");
      }
      try {
        PMap<String, Counts> counts = byTable;
        Counts sum = total;
        for (Map.Entry<String, List<Doc>> e : replacements.entrySet()) {
          String table = e.getKey();
          shared.writer.deleteDocuments(new Term(TABLE, table));
          Counts before = counts.get(table);
          counts = counts.minus(table);
          if (before != null) {
            sum = sum.minus(before);
          }
          Counts now = Counts.NONE;
          for (Doc d : e.getValue()) {
            if (!d.table().equals(table)) {
              throw new IllegalArgumentException("document " + d.id() + " is of table " + d.table() + ", not " + table);
            }
            now = now.plus(counts(shared.analyzer, d.text()));
            shared.writer.addDocument(document(d));
          }
          if (!e.getValue().isEmpty()) {
            counts = counts.plus(table, now);
            sum = sum.plus(now);
          }
        }
        DirectoryReader current = (DirectoryReader) searcher.getIndexReader();
        DirectoryReader next = DirectoryReader.openIfChanged(current, shared.writer);
        long nextGeneration = shared.latest.incrementAndGet();
        if (next == null) {
          return new LexicalIndex(shared, nextGeneration, current, sum, counts);
        }
        shared.retire(current);
        return new LexicalIndex(shared, nextGeneration, next, sum, counts);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot update the lexical index", e);
      }
    }
  }

  /**
   * How long a replaced version still answers. A reader keeps the files of its segments (and so
   * their memory) until it is closed; a question searches the version it took within
   * milliseconds, so a minute leaves a wide margin.
   */
  static final long RETIRED_READER_GRACE_MS = 60_000;

  private static Document document(Doc c) {
    Document d = new Document();
    d.add(new StringField("kind", c.kind(), Field.Store.NO));
    d.add(new StringField(TABLE, c.table(), Field.Store.NO));
    d.add(new BinaryDocValuesField(ID, new BytesRef(c.id())));
    d.add(new BinaryDocValuesField(REF, new BytesRef(c.table() + '\u0000' + c.subject().map(s -> "+" + s).orElse(""))));
    d.add(new TextField(TEXT, c.text(), Field.Store.NO));
    d.add(new Field(WORDS, c.text(), WORDS_TYPE));
    return d;
  }

  /** Indexed for lookup only: no frequencies, positions or norms, since nothing scores on it. */
  private static FieldType wordsType() {
    FieldType t = new FieldType();
    t.setTokenized(true);
    t.setIndexOptions(IndexOptions.DOCS);
    t.setOmitNorms(true);
    t.freeze();
    return t;
  }

  /** A misspelling is looked for only in words this long: shorter ones are too often another real word one edit away. */
  static final int MIN_RESPELLED_LENGTH = 6;
  /** From this length on, two edits ("departmnet" for "departments"): long words are rarely two edits from another word. */
  static final int TWO_EDITS_LENGTH = 9;

  /**
   * The question with each word that is no English word ({@link EnglishWords}) and that the
   * schema's text does not know (neither as written nor by its stem) replaced by the closest
   * schema word one edit away (a transposition counts as one; two edits from
   * {@value #TWO_EDITS_LENGTH} letters on), the one most texts use among equals: "headcount per
   * departmnet" asks for departments. Quoted values, words with capitals inside or after the
   * first word (names, codes) and words under {@value #MIN_RESPELLED_LENGTH} letters are left as
   * they are. The question itself when nothing is replaced.
   */
  public String respelled(String question) {
    StringBuilder out = new StringBuilder();
    int last = 0;
    try {
      for (QuestionWords.Word w : QuestionWords.of(question)) {
        if (w.text().length() < MIN_RESPELLED_LENGTH || w.capitalised()) {
          continue;
        }
        String lower = w.lower();
        if (EnglishWords.contains(lower) || knows(lower)) {
          continue;
        }
        IndexReader reader = searcher.getIndexReader();
        DirectSpellChecker checker = new DirectSpellChecker();
        checker.setMaxEdits(lower.length() >= TWO_EDITS_LENGTH ? 2 : 1);
        checker.setMinQueryLength(MIN_RESPELLED_LENGTH);
        SuggestWord[] s = checker.suggestSimilar(new Term(WORDS, lower), 1, reader, SuggestMode.SUGGEST_WHEN_NOT_IN_INDEX);
        if (s.length > 0) {
          out.append(question, last, w.start()).append(s[0].string);
          last = w.end();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return last == 0 ? question : out.append(question.substring(last)).toString();
  }

  /** Whether the schema's text has this lower-case word, as written or by every stem of it. */
  public boolean knows(String lowerCaseWord) {
    try {
      IndexReader reader = searcher.getIndexReader();
      return reader.docFreq(new Term(WORDS, lowerCaseWord)) > 0 || known(reader, lowerCaseWord);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether the schema's text has every stem of {@code word} (a plural or another form of a known word). */
  private boolean known(IndexReader reader, String word) throws IOException {
    Set<String> stems = analyze(word);
    for (String stem : stems) {
      if (reader.docFreq(new Term(TEXT, stem)) == 0) {
        return false;
      }
    }
    return true;
  }

  private IndexSearcher searcher(IndexReader reader) {
    IndexSearcher s = new LiveStatisticsSearcher(reader, total);
    s.setSimilarity(shared.similarity);
    return s;
  }

  /** The embed text plus the identifiers' words (a column named {@code dob} is found as "dob"). */
  private static String indexText(Chunk c) {
    StringBuilder sb = new StringBuilder(c.embedText());
    c.subject().ifPresent(s -> sb.append(' ').append(Identifiers.readable(s)));
    return sb.toString();
  }

  /**
   * Whether a live document of another table than the given one says the phrase (stems in order, a
   * stop word between them allowed) in its text: its names, comments, docs, column names or sampled
   * values. A phrase no other table says is that table's own.
   */
  public boolean heldElsewhere(List<String> stems, String table) {
    Query said;
    if (stems.size() == 1) {
      said = new TermQuery(new Term(TEXT, stems.get(0)));
    } else {
      PhraseQuery.Builder phrase = new PhraseQuery.Builder().setSlop(PHRASE_SLOP);
      stems.forEach(w -> phrase.add(new Term(TEXT, w)));
      said = phrase.build();
    }
    Query q = new BooleanQuery.Builder()
        .add(said, BooleanClause.Occur.MUST)
        .add(new TermQuery(new Term(TABLE, table)), BooleanClause.Occur.MUST_NOT)
        .build();
    try {
      return searcher.count(q) > 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Positions a phrase's words may stand apart beyond their order: the stop words analysis dropped between them. */
  private static final int PHRASE_SLOP = 2;

  /** Top chunks of one kind for a question; BM25 scores, highest first. */
  public List<Hit> search(String question, ChunkKind kind, int limit) {
    return search(question, kind.label(), limit).stream()
        .map(h -> new Hit(h.chunkId(), h.table(), kind, h.subject(), h.score())).toList();
  }

  /** Raw hits of one indexed kind (chunk kinds, or {@link #MODULE}); equal scores in document id order. */
  public List<Hit> search(String question, String kind, int limit) {
    return search(question, kind, limit, Map.of());
  }

  /** Top chunks of one kind for a question and other words searched beside its own, each with its weight (below 1). */
  public List<Hit> search(String question, ChunkKind kind, int limit, Map<String, Double> alsoWords) {
    return search(question, kind.label(), limit, alsoWords).stream()
        .map(h -> new Hit(h.chunkId(), h.table(), kind, h.subject(), h.score())).toList();
  }

  /** Raw hits of one indexed kind for a question and other words searched beside its own, each with its weight. */
  public List<Hit> search(String question, String kind, int limit, Map<String, Double> alsoWords) {
    Set<String> terms = analyze(question);
    terms.removeIf(LexicalIndex::isCount);
    Map<String, Float> also = new HashMap<>();
    alsoWords.forEach((word, weight) -> analyze(word).forEach(stem -> {
      if (!terms.contains(stem)) {
        also.merge(stem, weight.floatValue(), Math::max);
      }
    }));
    if (terms.isEmpty() && also.isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder text = new BooleanQuery.Builder();
    terms.forEach(t -> text.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD));
    also.forEach((t, w) -> text.add(new BoostQuery(new TermQuery(new Term(TEXT, t)), w), BooleanClause.Occur.SHOULD));
    BooleanQuery q = new BooleanQuery.Builder()
        .add(text.build(), BooleanClause.Occur.MUST)
        .add(new TermQuery(new Term("kind", kind)), BooleanClause.Occur.FILTER)
        .build();
    try {
      ScoreDoc[] hits;
      try {
        hits = searcher.search(q, limit, BY_SCORE_THEN_ID, true).scoreDocs;
      } catch (org.apache.lucene.store.AlreadyClosedException e) {
        throw new IllegalStateException("this version of the lexical index was replaced more than "
            + RETIRED_READER_GRACE_MS / 1000 + " s ago; search the current one", e);
      }
      List<Hit> out = new ArrayList<>(hits.length);
      String[] refs = refs(hits);
      for (int i = 0; i < hits.length; i++) {
        ScoreDoc sd = hits[i];
        String id = ((BytesRef) ((FieldDoc) sd).fields[1]).utf8ToString();
        String ref = refs[i];
        int sep = ref.indexOf('\u0000');
        String subject = ref.substring(sep + 1);
        out.add(new Hit(id, ref.substring(0, sep), null, subject.isEmpty() ? Optional.empty() : Optional.of(subject.substring(1)), sd.score));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Each hit's table and subject, read in document order with one doc-values iterator per segment
   * (an iterator only moves forward; opening one per hit cost a copy of the segment's input each).
   */
  private String[] refs(ScoreDoc[] hits) throws IOException {
    Integer[] byDoc = new Integer[hits.length];
    for (int i = 0; i < hits.length; i++) {
      byDoc[i] = i;
    }
    java.util.Arrays.sort(byDoc, java.util.Comparator.comparingInt(i -> hits[i].doc));
    var leaves = searcher.getIndexReader().leaves();
    String[] out = new String[hits.length];
    int leafIndex = -1;
    org.apache.lucene.index.LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (int i : byDoc) {
      int doc = hits[i].doc;
      int at = ReaderUtil.subIndex(doc, leaves);
      if (at != leafIndex) {
        leafIndex = at;
        leaf = leaves.get(at);
        values = leaf.reader().getBinaryDocValues(REF);
      }
      if (values == null || !values.advanceExact(doc - leaf.docBase)) {
        throw new IllegalStateException("lexical document " + doc + " has no table");
      }
      out[i] = values.binaryValue().utf8ToString();
    }
    return out;
  }

  Set<String> analyze(String text) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = shared.analyzer.tokenStream(TEXT, text)) {
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

  /**
   * A number of one or two digits, left out of a question's search: in a question it counts or limits
   * ("at least 4 students", "top 5"), while in names such digits tell apart (hr_unit4, music_4, address2),
   * so it matched whatever carried them (at 10,000 tables, 4 tables of hr_unit4 among the first 5 hits for
   * "Show me all grades that have at least 4 students"). Years and codes stay: sampled values and docs
   * hold them, and leaving out every number lost 3 of the ERP questions about 2024.
   */
  static boolean isCount(String term) {
    return term.length() <= 2 && term.chars().allMatch(ch -> ch >= '0' && ch <= '9');
  }

  /** What indexing {@code text} adds to the statistics of the text field. */
  private static Counts counts(Analyzer analyzer, String text) throws IOException {
    long tokens = 0;
    Set<String> distinct = new HashSet<>();
    try (TokenStream ts = analyzer.tokenStream(TEXT, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        tokens++;
        distinct.add(term.toString());
      }
      ts.end();
    }
    return tokens == 0 ? Counts.NONE : new Counts(1, tokens, distinct.size());
  }

  /**
   * A searcher whose BM25 statistics (document frequency, document count, average length) count
   * live documents only, as a fresh index would: without deletions Lucene's own are exact, with
   * deletions a term's counts in a segment are Lucene's less those of its deleted documents.
   */
  private static final class LiveStatisticsSearcher extends IndexSearcher {
    private final Counts live;
    private final boolean deletions;
    /** Per leaf (by its ord), its deleted documents in order; null for a leaf without. */
    private final int[][] deletedOfLeaf;

    LiveStatisticsSearcher(IndexReader reader, Counts live) {
      super(reader);
      this.live = live;
      this.deletions = reader.hasDeletions();
      List<LeafReaderContext> leaves = reader.leaves();
      this.deletedOfLeaf = new int[leaves.size()][];
      if (deletions) {
        for (LeafReaderContext leaf : leaves) {
          deletedOfLeaf[leaf.ord] = deleted(leaf.reader());
        }
      }
    }

    private static int[] deleted(LeafReader leaf) {
      Bits liveDocs = leaf.getLiveDocs();
      if (liveDocs == null) {
        return null;
      }
      int[] out = new int[leaf.maxDoc() - leaf.numDocs()];
      int n = 0;
      for (int d = 0; d < leaf.maxDoc() && n < out.length; d++) {
        if (!liveDocs.get(d)) {
          out[n++] = d;
        }
      }
      return out;
    }

    @Override
    public CollectionStatistics collectionStatistics(String field) throws IOException {
      if (!deletions || !field.equals(TEXT)) {
        return super.collectionStatistics(field);
      }
      return live.docs() == 0 ? null
          : new CollectionStatistics(field, getIndexReader().maxDoc(), live.docs(), live.terms(), live.distinctTerms());
    }

    @Override
    public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq) throws IOException {
      if (!deletions) {
        return super.termStatistics(term, docFreq, totalTermFreq);
      }
      long df = 0;
      long ttf = 0;
      PostingsEnum postings = null;
      for (LeafReaderContext leaf : getIndexReader().leaves()) {
        Terms terms = leaf.reader().terms(term.field());
        if (terms == null) {
          continue;
        }
        TermsEnum te = terms.iterator();
        if (!te.seekExact(term.bytes())) {
          continue;
        }
        df += te.docFreq();
        ttf += te.totalTermFreq();
        int[] deleted = deletedOfLeaf[leaf.ord];
        if (deleted == null) {
          continue;
        }
        postings = te.postings(postings, PostingsEnum.FREQS);
        if (deleted.length < te.docFreq()) {
          // Few deleted documents beside a common term (a column word such as "name" at 10,000 tables): the
          // postings skip to each of them instead of every question after a change walking the whole list.
          for (int d : deleted) {
            int at = postings.docID() < d ? postings.advance(d) : postings.docID();
            if (at == DocIdSetIterator.NO_MORE_DOCS) {
              break;
            }
            if (at == d) {
              df--;
              ttf -= postings.freq();
            }
          }
        } else {
          Bits liveDocs = leaf.reader().getLiveDocs();
          for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
            if (!liveDocs.get(d)) {
              df--;
              ttf -= postings.freq();
            }
          }
        }
      }
      // A term only deleted documents hold matches nothing live; any valid statistics will do.
      return df == 0 ? super.termStatistics(term, docFreq, totalTermFreq) : new TermStatistics(term.bytes(), df, ttf);
    }
  }
}
