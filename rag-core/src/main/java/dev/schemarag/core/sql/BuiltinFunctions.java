package dev.schemarag.core.sql;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The functions generated SQL may call: ordinary built-ins of PostgreSQL that compute a value from
 * their arguments (string, math, date and time, conditional, casts, JSON values, arrays) and the
 * common aggregates and window functions. Everything else is refused, so a function this list
 * does not know (pg_sleep, set_config, query_to_xml, ts_stat, pg_stat_get_activity, a user's own
 * function, or anything added in a later PostgreSQL) never runs. Names are compared after
 * PostgreSQL's own resolution (see {@link PgText#qualifiedName}); a schema-qualified name is only
 * accepted as {@code pg_catalog.<allowed>}.
 */
public final class BuiltinFunctions {
  private BuiltinFunctions() {}

  static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "array_agg", "string_agg", "bool_and",
      "bool_or", "every", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "json_agg", "jsonb_agg",
      "json_object_agg", "jsonb_object_agg", "percentile_cont", "percentile_disc", "mode", "corr", "covar_pop", "covar_samp",
      "regr_slope", "regr_intercept", "regr_r2", "regr_count", "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy",
      "bit_and", "bit_or", "bit_xor", "any_value");

  static final Set<String> WINDOW = Set.of("row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag",
      "lead", "first_value", "last_value", "nth_value");

  static final Set<String> MATH = Set.of("abs", "ceil", "ceiling", "floor", "round", "trunc", "sign", "sqrt", "cbrt", "power",
      "pow", "exp", "ln", "log", "log10", "mod", "div", "pi", "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan",
      "atan2", "sinh", "cosh", "tanh", "width_bucket", "gcd", "lcm", "factorial", "scale", "min_scale", "trim_scale", "random");

  static final Set<String> STRING = Set.of("length", "char_length", "character_length", "octet_length", "bit_length", "lower",
      "upper", "initcap", "btrim", "ltrim", "rtrim", "trim", "lpad", "rpad", "substr", "substring", "left", "right", "position",
      "strpos", "replace", "translate", "concat", "concat_ws", "split_part", "reverse", "repeat", "ascii", "chr", "md5",
      "starts_with", "format", "quote_ident", "quote_literal", "quote_nullable", "to_hex", "regexp_match", "regexp_matches",
      "regexp_replace", "regexp_split_to_array", "regexp_split_to_table", "regexp_count", "regexp_like", "regexp_substr",
      "regexp_instr", "string_to_array", "array_to_string", "to_char", "to_number", "encode", "decode", "overlay",
      "sha256", "sha512");

  static final Set<String> DATE_TIME = Set.of("now", "age", "date_part", "date_trunc", "date_bin", "extract", "make_date",
      "make_time", "make_timestamp", "make_timestamptz", "make_interval", "justify_days", "justify_hours", "justify_interval",
      "isfinite", "clock_timestamp", "statement_timestamp", "transaction_timestamp", "to_date", "to_timestamp", "timezone");

  static final Set<String> CONDITIONAL = Set.of("coalesce", "nullif", "greatest", "least", "num_nulls", "num_nonnulls");

  /** Type names PostgreSQL also accepts as cast functions ({@code numeric(x)}, {@code text(x)}). */
  static final Set<String> CASTS = Set.of("text", "varchar", "char", "bpchar", "int", "int2", "int4", "int8", "integer",
      "smallint", "bigint", "numeric", "decimal", "float4", "float8", "real", "bool", "boolean", "date", "time", "timestamp",
      "timestamptz", "interval", "cast");

  static final Set<String> JSON_ARRAY = Set.of("json_build_object", "jsonb_build_object", "json_build_array",
      "jsonb_build_array", "to_json", "to_jsonb", "row_to_json", "json_extract_path", "json_extract_path_text",
      "jsonb_extract_path", "jsonb_extract_path_text", "json_array_length", "jsonb_array_length", "json_typeof", "jsonb_typeof",
      "json_array_elements", "jsonb_array_elements", "json_array_elements_text", "jsonb_array_elements_text",
      "json_object_keys", "jsonb_object_keys", "json_each", "jsonb_each", "json_each_text", "jsonb_each_text",
      "jsonb_strip_nulls", "jsonb_pretty", "array_length", "array_position", "array_positions", "array_remove", "array_append",
      "array_prepend", "array_cat", "array_upper", "array_lower", "array_ndims", "cardinality", "unnest", "generate_series");

  /** Every allowed name. */
  public static final Set<String> ALLOWED = Stream.of(AGGREGATES, WINDOW, MATH, STRING, DATE_TIME, CONDITIONAL, CASTS, JSON_ARRAY)
      .flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());

  /**
   * Why a call of this function is refused, or empty when it is allowed.
   *
   * @param parts the name's parts as PostgreSQL resolves them (schema first when qualified)
   */
  static Optional<String> refusal(List<String> parts) {
    String shown = String.join(".", parts);
    if (parts.isEmpty() || parts.size() > 2) {
      return Optional.of("function " + shown + " is not an allowed built-in function");
    }
    if (parts.size() == 2 && !parts.get(0).equals("pg_catalog")) {
      return Optional.of("function " + shown + " lies outside pg_catalog: only allowed built-in functions may run");
    }
    String name = parts.get(parts.size() - 1);
    if (!ALLOWED.contains(name)) {
      return Optional.of("function " + shown + " is not on the allowlist of built-in functions");
    }
    return Optional.empty();
  }
}
