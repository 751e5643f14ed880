package dev.schemarag.core.sql;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * What one answer may carry of a query's rows, so that the answer event fits in a Kafka record
 * whatever the query returns: at most {@code previewRows} rows and {@code maxBytes} of values in
 * all, no value longer than {@code maxValueBytes} (a longer one is cut and marked). Rows are offered
 * one at a time as they are read; what is left out or cut makes the answer {@link #truncated()}.
 * Sizes are UTF-8 bytes plus {@link #VALUE_OVERHEAD} per value, about what Avro spends on a string.
 */
public final class RowBudget {

  /** Bytes counted per value on top of its text: Avro's length prefix and union branch. */
  static final int VALUE_OVERHEAD = 4;
  /** Bytes of row data one fetch from PostgreSQL may bring, at the widest row seen so far. */
  static final long FETCH_BYTES = 4L * 1024 * 1024;
  /** Rows of the first fetch, before any row's width is known (few: they may be megabytes each), and the most of any fetch. */
  static final int FIRST_FETCH_ROWS = 10;
  static final int MAX_FETCH_ROWS = 1000;

  /**
   * @param maxBytes bytes of values one answer carries ({@code answer.max.bytes})
   * @param maxValueBytes the longest value it carries ({@code answer.max.value.bytes})
   */
  public record Limits(int maxBytes, int maxValueBytes) {
    public static final Limits DEFAULT = from(SchemaragConfig.defaults());

    public Limits {
      if (maxValueBytes < 64) {
        throw new IllegalArgumentException("answer.max.value.bytes must be at least 64, was " + maxValueBytes);
      }
      if (maxBytes < maxValueBytes) {
        throw new IllegalArgumentException("answer.max.bytes (" + maxBytes + ") must be at least answer.max.value.bytes ("
            + maxValueBytes + ")");
      }
    }

    public static Limits from(SchemaragConfig c) {
      return new Limits(c.getInt(ConfigKeys.ANSWER_MAX_BYTES), c.getInt(ConfigKeys.ANSWER_MAX_VALUE_BYTES));
    }
  }

  private final int previewRows;
  private final Limits limits;
  private final List<List<String>> rows = new ArrayList<>();
  private long bytes;
  private boolean full;
  private boolean truncated;

  public RowBudget(int previewRows, Limits limits) {
    this.previewRows = previewRows;
    this.limits = limits;
  }

  /**
   * Offers the next row read. It is kept (its long values cut) while both the row count and the byte
   * budget allow; once one row did not fit, no later row is kept, so the rows stay a prefix of the result.
   *
   * @return whether the row was kept
   */
  public boolean offer(List<String> row) {
    if (full || rows.size() >= previewRows) {
      full = true;
      truncated = true;
      return false;
    }
    List<String> kept = new ArrayList<>(row.size());
    long size = 0;
    for (String v : row) {
      String c = cut(v, limits.maxValueBytes());
      if (c != v) {
        truncated = true;
      }
      size += size(c);
      kept.add(c);
    }
    if (bytes + size > limits.maxBytes()) {
      full = true;
      truncated = true;
      return false;
    }
    bytes += size;
    rows.add(kept);
    return true;
  }

  /** The rows kept, in the order read. */
  public List<List<String>> rows() {
    return rows;
  }

  /** Whether a row was left out or a value cut. */
  public boolean truncated() {
    return truncated;
  }

  /** Bytes the kept rows count against the budget. */
  public long bytes() {
    return bytes;
  }

  /** A value's cost against the budget. */
  static long size(String v) {
    return VALUE_OVERHEAD + (v == null ? 0 : utf8Length(v));
  }

  /**
   * The value itself when it fits in {@code maxBytes} of UTF-8, else its longest prefix that fits
   * together with a marker naming the full size ({@code xxx…[3000000 bytes, cut]}); never a half
   * surrogate pair.
   */
  static String cut(String v, int maxBytes) {
    if (v == null) {
      return null;
    }
    long full = utf8Length(v);
    if (full <= maxBytes) {
      return v;
    }
    String marker = "…[" + full + " bytes, cut]";
    long room = maxBytes - utf8Length(marker);
    int end = 0;
    long used = 0;
    while (end < v.length()) {
      int cp = v.codePointAt(end);
      int n = utf8Length(cp);
      if (used + n > room) {
        break;
      }
      used += n;
      end += Character.charCount(cp);
    }
    return v.substring(0, end) + marker;
  }

  /** UTF-8 length without encoding (a lone surrogate counts as the 3 bytes of its replacement). */
  static long utf8Length(CharSequence s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  private static int utf8Length(int codePoint) {
    return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }

  /**
   * Rows to fetch next so that one fetch holds about {@link #FETCH_BYTES} at the widest row seen
   * (between 1 and {@link #MAX_FETCH_ROWS}): wide rows come a few at a time, narrow ones in bulk.
   */
  static int fetchRows(long widestRowBytes) {
    if (widestRowBytes <= 0) {
      return FIRST_FETCH_ROWS;
    }
    return (int) Math.max(1, Math.min(MAX_FETCH_ROWS, FETCH_BYTES / widestRowBytes));
  }
}
