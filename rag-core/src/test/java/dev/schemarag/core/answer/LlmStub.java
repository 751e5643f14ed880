package dev.schemarag.core.answer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A local LLM endpoint with scripted replies: speaks OpenAI chat completions ({@code /v1/chat/completions})
 * and Ollama chat ({@code /api/chat}). The permitted stand-in at the LLM boundary; it records every request.
 */
public final class LlmStub implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpServer server;
  private final Deque<String> replies = new ArrayDeque<>();
  private final List<String> requests = new ArrayList<>();

  public LlmStub(String... scripted) throws IOException {
    replies.addAll(List.of(scripted));
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/chat/completions", ex -> respond(ex, true));
    server.createContext("/api/chat", ex -> respond(ex, false));
    server.start();
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

  private synchronized void respond(HttpExchange ex, boolean openAi) throws IOException {
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.add(body);
    String content = replies.isEmpty() ? "I have nothing more to say." : replies.poll();
    ObjectNode out = JSON.createObjectNode();
    if (openAi) {
      out.put("id", "stub-" + requests.size()).put("object", "chat.completion").put("created", 0).put("model", "stub");
      ObjectNode choice = out.putArray("choices").addObject();
      choice.put("index", 0).put("finish_reason", "stop");
      choice.putObject("message").put("role", "assistant").put("content", content);
      out.putObject("usage").put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2);
    } else {
      out.put("model", "stub").put("created_at", "2026-01-01T00:00:00Z").put("done", true).put("done_reason", "stop");
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
