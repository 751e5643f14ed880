package dev.schemarag.gateway;

import dev.schemarag.events.nlq.QueryAnswered;
import dev.schemarag.events.nlq.QueryFailed;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The MCP tools, the same for both transports: list_databases, get_schema_context, ask_database and
 * describe_table. All read-only. Bad arguments are JSON-RPC errors (invalid params) naming the
 * problem; a question the query service could not answer is a tool result with isError and its
 * failure class, so the model can read why.
 */
final class McpTools {

  static final String PRINCIPAL_KEY = "principal";
  static final String INSTRUCTIONS = "schemarag answers questions about a PostgreSQL database with read-only SQL. Call list_databases"
      + " to see which database ids exist, get_schema_context to see the tables and columns relevant to a question, describe_table"
      + " for one table's full definition, and ask_database to get SQL plus its result rows.";

  private final GatewayCore core;
  private final String defaultPrincipal;

  McpTools(GatewayCore core, String defaultPrincipal) {
    this.core = core;
    this.defaultPrincipal = defaultPrincipal;
  }

  List<SyncToolSpecification> specifications() {
    return List.of(
        spec(tool("list_databases", "List databases",
            "Lists the databases you can ask about, with their id, the schemas that are indexed and the number of tables."
                + " Call it first when you do not know which database_id to use.",
            Map.of(), List.of()), this::listDatabases),
        spec(tool("get_schema_context", "Get schema context",
            "Retrieves the part of a database schema relevant to a natural-language question: the most relevant tables with their"
                + " columns, types and comments as compact DDL, plus foreign-key join hints. Nothing is executed. Use it to write or"
                + " check SQL yourself, or to explain which data exists for a question.",
            Map.of("question", str("the question or topic, e.g. 'overdue invoices per customer'"),
                "database_id", str("database id from list_databases; default: the gateway's database"),
                "top_k", integer("most tables retrieved before foreign-key expansion", 1, QuestionInput.MAX_TOP_K)),
            List.of("question")), this::schemaContext),
        spec(tool("ask_database", "Ask the database",
            "Answers a natural-language question about a database: retrieves the relevant schema, generates one guarded read-only"
                + " SELECT, runs it and returns the SQL, the column names, the first rows and notes. If it cannot answer, the result"
                + " is an error naming the failure class (e.g. sql_error, validation_block, generator_unavailable, unknown_database)"
                + " and why.",
            Map.of("question", str("the question in plain language, e.g. 'Which customers owe us money past the due date?'"),
                "database_id", str("database id from list_databases; default: the gateway's database"),
                "max_rows", integer("most rows the query may return", 1, QuestionInput.MAX_ROWS),
                "execute", Map.of("type", "boolean", "description", "false: generate and check the SQL without running it", "default", true)),
            List.of("question")), this::askDatabase),
        spec(tool("describe_table", "Describe a table",
            "Describes one table from the live database catalog: every column with its type, nullability, default, primary key"
                + " and comment, the table comment, its foreign keys and the tables that reference it (as join conditions).",
            Map.of("table", str("table name, schema-qualified like sales.orders (a unique unqualified name also works)"),
                "database_id", str("database id from list_databases; default: the gateway's database")),
            List.of("table")), this::describeTable));
  }

  private static Map<String, Object> str(String description) {
    return Map.of("type", "string", "description", description);
  }

  private static Map<String, Object> integer(String description, int min, int max) {
    return Map.of("type", "integer", "description", description, "minimum", min, "maximum", max);
  }

  private static Tool tool(String name, String title, String description, Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    schema.put("additionalProperties", false);
    return Tool.builder(name).title(title).description(description).inputSchema(schema)
        .annotations(ToolAnnotations.builder().title(title).readOnlyHint(true).destructiveHint(false).idempotentHint(true)
            .openWorldHint(false).build())
        .build();
  }

  private static SyncToolSpecification spec(Tool tool, BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
    return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
      try {
        return handler.apply(exchange, request);
      } catch (Problem.Raised e) {
        if (e.problem().status() == 400) {
          throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(tool.name() + ": " + e.getMessage()).build();
        }
        return error(e.getMessage(), e.problem().toJson(null));
      }
    }).build();
  }

  private static Map<String, Object> args(CallToolRequest r) {
    return r.arguments() == null ? Map.of() : r.arguments();
  }

  private String principal(McpSyncServerExchange exchange) {
    Object p = exchange.transportContext() == null ? null : exchange.transportContext().get(PRINCIPAL_KEY);
    return p == null ? defaultPrincipal : p.toString();
  }

  private static void rejectUnknown(Map<String, Object> args, List<String> allowed) {
    for (String k : args.keySet()) {
      if (!allowed.contains(k)) {
        throw QuestionInput.invalid("invalid-field", "Unknown argument", "unknown argument '" + k + "'; allowed: " + String.join(", ", allowed));
      }
    }
  }

  private CallToolResult listDatabases(McpSyncServerExchange exchange, CallToolRequest request) {
    rejectUnknown(args(request), List.of());
    List<Map<String, Object>> dbs = core.databases().list(principal(exchange));
    StringBuilder text = new StringBuilder("Databases:\n");
    for (Map<String, Object> d : dbs) {
      text.append("- ").append(d.get("database_id")).append(" (schemas ").append(String.join(", ", castList(d.get("schemas"))));
      if (d.get("tables") != null) {
        text.append("; ").append(d.get("tables")).append(" tables");
      }
      text.append(")\n");
    }
    return ok(text.toString(), Map.of("databases", dbs));
  }

  private CallToolResult schemaContext(McpSyncServerExchange exchange, CallToolRequest request) {
    Map<String, Object> a = args(request);
    rejectUnknown(a, List.of("question", "database_id", "top_k"));
    QuestionInput in = QuestionInput.fromArguments(a, core.settings().questionMaxChars(), true);
    Outcome o = ask(core.request(in, principal(exchange)));
    if (o instanceof Outcome.Failed f) {
      return failed(f.event());
    }
    QueryAnswered ans = ((Outcome.Answered) o).event();
    Map<String, Object> g = OutcomeJson.grounding(ans);
    String text = "Schema context for \"" + ans.getQuestion() + "\" in database " + ans.getDatabaseId() + " (" + ans.getTables().size()
        + " tables: " + String.join(", ", ans.getTables()) + "):\n\n" + g.get("context");
    return ok(text, g);
  }

  private CallToolResult askDatabase(McpSyncServerExchange exchange, CallToolRequest request) {
    Map<String, Object> a = args(request);
    rejectUnknown(a, List.of("question", "database_id", "max_rows", "execute"));
    QuestionInput in = QuestionInput.fromArguments(a, core.settings().questionMaxChars(), false);
    Outcome o = ask(core.request(in, principal(exchange)));
    if (o instanceof Outcome.Failed f) {
      return failed(f.event());
    }
    QueryAnswered ans = ((Outcome.Answered) o).event();
    Map<String, Object> m = OutcomeJson.answer(ans);
    StringBuilder text = new StringBuilder();
    text.append("SQL (").append(ans.getSqlSource()).append(", ").append(ans.getAttempts()).append(ans.getAttempts() == 1 ? " attempt" : " attempts")
        .append("):\n").append(ans.getSql()).append("\n\n");
    if (!ans.getColumnNames().isEmpty()) {
      text.append(ans.getRowCount()).append(ans.getRowCount() == 1 ? " row" : " rows");
      if (ans.getRowsPreview().size() < ans.getRowCount()) {
        text.append(", first ").append(ans.getRowsPreview().size()).append(" shown");
      } else if (ans.getTruncated()) {
        text.append(", long values cut");
      }
      text.append(":\n").append(OutcomeJson.table(OutcomeJson.strings(ans.getColumnNames()), castRows(m.get("rows"))));
    } else {
      text.append("(not executed)\n");
    }
    if (ans.getNote() != null) {
      text.append("\nNote: ").append(ans.getNote()).append('\n');
    }
    return ok(text.toString(), m);
  }

  private CallToolResult describeTable(McpSyncServerExchange exchange, CallToolRequest request) {
    Map<String, Object> a = args(request);
    rejectUnknown(a, List.of("table", "database_id"));
    Object table = a.get("table");
    if (table != null && !(table instanceof String)) {
      throw QuestionInput.invalid("invalid-field", "Invalid argument", "'table' must be a string");
    }
    Optional<String> db = Optional.ofNullable(a.get("database_id")).map(Object::toString);
    Map<String, Object> d = core.databases().describe(db, (String) table, principal(exchange));
    return ok(DatabaseDirectory.describeText(d), d);
  }

  private Outcome ask(dev.schemarag.events.nlq.QuestionRequested q) {
    try {
      return core.bus().ask(q, core.settings().answerTimeout());
    } catch (AnswerTimeout e) {
      throw Problem.of(504, "answer-timeout", "Answer not ready in time", e.getMessage()).with("query_id", e.queryId()).raise();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Problem.of(503, "shutting-down", "Shutting down", "the gateway is stopping").raise();
    }
  }

  private static CallToolResult ok(String text, Map<String, Object> structured) {
    return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false).build();
  }

  private static CallToolResult error(String text, Map<String, Object> structured) {
    return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(true).build();
  }

  private static CallToolResult failed(QueryFailed f) {
    StringBuilder text = new StringBuilder("Not answered: ").append(f.getErrorClass()).append(" at ").append(f.getStage()).append(": ")
        .append(f.getMessage()).append(" (query_id ").append(f.getQueryId()).append(')');
    if (f.getLastSql() != null) {
      text.append("\nLast SQL tried:\n").append(f.getLastSql());
    }
    return error(text.toString(), OutcomeJson.failure(f));
  }

  @SuppressWarnings("unchecked")
  private static List<String> castList(Object o) {
    return (List<String>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<List<String>> castRows(Object o) {
    return (List<List<String>>) o;
  }
}
