package dev.schemarag.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A local LLM endpoint with scripted replies, the one permitted stand-in at the LLM boundary (tests
 * and the answer benchmark): speaks OpenAI chat completions ({@code /v1/chat/completions}) and
 * Ollama chat ({@code /api/chat}), answers each request with what the script gives for its last
 * message, and records every request body.
 */
public final class ScriptedLlmServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpServer server;
  private final UnaryOperator<String> script;
  private final List<String> requests = new ArrayList<>();

  /** @param script the reply to a prompt (the last message's content) */
  public ScriptedLlmServer(UnaryOperator<String> script) {
    this.script = script;
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a local port for the scripted LLM", e);
    }
    server.createContext("/v1/chat/completions", ex -> respond(ex, true));
    server.createContext("/api/chat", ex -> respond(ex, false));
    server.start();
  }

  /** Replies in this order, one per request; then a reply without SQL. */
  public static ScriptedLlmServer replying(String... scripted) {
    Deque<String> replies = new ArrayDeque<>(List.of(scripted));
    return new ScriptedLlmServer(prompt -> {
      synchronized (replies) {
        return replies.isEmpty() ? "I have nothing more to say." : replies.poll();
      }
    });
  }

  public String openAiUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  public String ollamaUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public synchronized List<String> requests() {
    return List.copyOf(requests);
  }

  private void respond(HttpExchange ex, boolean openAi) throws IOException {
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    synchronized (this) {
      requests.add(body);
    }
    JsonNode messages = JSON.readTree(body).path("messages");
    String prompt = messages.isArray() && !messages.isEmpty() ? messages.get(messages.size() - 1).path("content").asText("") : "";
    String content = script.apply(prompt);
    ObjectNode out = JSON.createObjectNode();
    if (openAi) {
      out.put("id", "scripted").put("object", "chat.completion").put("created", 0).put("model", "scripted");
      ObjectNode choice = out.putArray("choices").addObject();
      choice.put("index", 0).put("finish_reason", "stop");
      choice.putObject("message").put("role", "assistant").put("content", content);
      out.putObject("usage").put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2);
    } else {
      out.put("model", "scripted").put("created_at", "2026-01-01T00:00:00Z").put("done", true).put("done_reason", "stop");
      out.putObject("message").put("role", "assistant").put("content", content);
      out.put("prompt_eval_count", 1).put("eval_count", 1);
    }
    byte[] bytes = JSON.writeValueAsBytes(out);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(200, bytes.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
