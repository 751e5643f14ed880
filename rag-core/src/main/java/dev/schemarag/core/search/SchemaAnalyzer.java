package dev.schemarag.core.search;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * Text analysis for schema text and questions: identifiers split on snake_case and camelCase
 * ({@code CustomerID} and {@code customer_id} both give "custom" "id" after stemming), lower case,
 * English stop words and the words that frame a question removed, Porter stems.
 */
public final class SchemaAnalyzer extends Analyzer {

  /**
   * The words that frame a question (lower case); with Lucene's English stop words, the {@link #STOP_WORDS}, which
   * read it, so it is declared first.
   */
  public static final java.util.Set<String> FRAMING_WORDS = java.util.Set.of("how", "many", "much", "what", "which", "whether",
      "i", "me", "my", "you", "your",
      "am", "do", "does", "did", "can", "could", "would", "should", "were", "been", "being",
      "please", "tell", "give", "find");

  /**
   * Lucene's English stop words and the words a question is framed with: interrogatives ("how many"),
   * auxiliaries, requests and the asker's "I" and "you". A schema rarely says them, so BM25 weighs them as rare terms,
   * and a single description that does ("how many points a driver acquired") outranked the tables a
   * question is about; the more tables are indexed, the rarer and heavier such a word gets. "Who",
   * "where" and "when" stay, as docs say them of people, places and dates ("where the goods are
   * kept"), and so do "we", "us" and "our", a company's docs' words for itself ("what customers paid
   * us"), and "has" and "have": tables are named with them ({@code has_pet}).
   */
  static final CharArraySet STOP_WORDS = stopWords();

  private static CharArraySet stopWords() {
    CharArraySet set = new CharArraySet(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, false);
    set.addAll(FRAMING_WORDS);
    return CharArraySet.unmodifiableSet(set);
  }

  private static final SchemaAnalyzer SHARED = new SchemaAnalyzer();

  private final boolean stemmed;

  public SchemaAnalyzer() {
    this(true);
  }

  private SchemaAnalyzer(boolean stemmed) {
    this.stemmed = stemmed;
  }

  /** The same split and lower case, with stop words and surface forms kept: the words a spelling is checked against. */
  public static SchemaAnalyzer words() {
    return new SchemaAnalyzer(false);
  }

  /** The stems of a text in order, repeats kept: the phrase form that name matching compares. */
  public static java.util.List<String> stems(String text) {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (TokenStream ts = SHARED.tokenStream("text", text)) {
      org.apache.lucene.analysis.tokenattributes.CharTermAttribute term =
          ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  /** Whether a stem is a word to search for: it holds a letter ("2024", "15%" do not). */
  public static boolean isWord(String stem) {
    return stem.chars().anyMatch(Character::isLetter);
  }

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    Tokenizer source = new StandardTokenizer();
    int flags = WordDelimiterGraphFilter.GENERATE_WORD_PARTS
        | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
        | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE
        | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS;
    TokenStream ts = new WordDelimiterGraphFilter(source, flags, null);
    ts = new LowerCaseFilter(ts);
    if (!stemmed) {
      return new TokenStreamComponents(source, ts);
    }
    ts = new EnglishPossessiveFilter(ts);
    ts = new StopFilter(ts, STOP_WORDS);
    ts = new PorterStemFilter(ts);
    return new TokenStreamComponents(source, ts);
  }
}
