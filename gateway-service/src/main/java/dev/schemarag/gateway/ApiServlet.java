package dev.schemarag.gateway;

import dev.schemarag.events.nlq.QuestionRequested;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The HTTP JSON API (/api/v1) and the health routes; every error is a problem+json. */
final class ApiServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ApiServlet.class);
  private static final Pattern QUESTION_ID = Pattern.compile("/api/v1/questions/([A-Za-z0-9_.\\-]{1,128})");

  private final transient GatewayCore core;
  private final transient byte[] openApi;

  ApiServlet(GatewayCore core, byte[] openApi) {
    this.core = core;
    this.openApi = openApi;
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String path = req.getRequestURI();
    String method = req.getMethod();
    try {
      switch (path) {
        case "/health/live" -> expect(method, "GET", () -> JsonResponses.json(resp, 200, Map.of("status", "up")));
        case "/health/ready" -> expect(method, "GET", () -> {
          if (core.bus().ready()) {
            JsonResponses.json(resp, 200, Map.of("status", "ready"));
          } else {
            JsonResponses.problem(req, resp, Problem.of(503, "not-ready", "Not ready", "the gateway is not reading answers from Kafka"));
          }
        });
        case "/api/v1/openapi.json" -> expect(method, "GET", () -> {
          resp.setContentType("application/json");
          resp.setCharacterEncoding("UTF-8");
          resp.getOutputStream().write(openApi);
        });
        case "/api/v1/databases" -> expect(method, "GET", () -> JsonResponses.json(resp, 200, Map.of("databases", core.databases().list(principal(req)))));
        case "/api/v1/questions" -> expect(method, "POST", () -> ask(req, resp));
        case "/api/v1/schema/grounding" -> expect(method, "POST", () -> ground(req, resp));
        default -> {
          Matcher m = QUESTION_ID.matcher(path);
          if (m.matches()) {
            expect(method, "GET", () -> fetch(m.group(1), req, resp));
          } else {
            throw Problem.of(404, "not-found", "Not found", "no route " + path + " (see /api/v1/openapi.json)").raise();
          }
        }
      }
    } catch (Problem.Raised e) {
      JsonResponses.problem(req, resp, e.problem());
    } catch (AnswerTimeout e) {
      resp.setHeader("Location", "/api/v1/questions/" + e.queryId());
      JsonResponses.problem(req, resp, Problem.of(504, "answer-timeout", "Answer not ready in time", e.getMessage())
          .with("query_id", e.queryId()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      JsonResponses.problem(req, resp, Problem.of(503, "shutting-down", "Shutting down", "the gateway is stopping"));
    } catch (RuntimeException e) {
      LOG.error("{} {} failed", method, path, e);
      JsonResponses.problem(req, resp, Problem.of(500, "internal", "Internal error", String.valueOf(e.getMessage())));
    }
  }

  private interface Action {
    void run() throws IOException, AnswerTimeout, InterruptedException;
  }

  private static void expect(String method, String allowed, Action action) throws IOException, AnswerTimeout, InterruptedException {
    if (!method.equals(allowed)) {
      throw Problem.of(405, "method-not-allowed", "Method not allowed", method + " is not allowed here; use " + allowed).raise();
    }
    action.run();
  }

  private void ask(HttpServletRequest req, HttpServletResponse resp) throws IOException, AnswerTimeout, InterruptedException {
    QuestionInput in = QuestionInput.fromJson(body(req, resp), core.settings().questionMaxChars(), false);
    QuestionRequested q = core.request(in, principal(req));
    String async = Optional.ofNullable(req.getParameter("async")).orElse("false");
    if (async.equals("true")) {
      core.bus().publish(q);
      resp.setHeader("Location", "/api/v1/questions/" + q.getQueryId());
      JsonResponses.json(resp, 202, Map.of("query_id", q.getQueryId(), "status", "pending", "href", "/api/v1/questions/" + q.getQueryId()));
      return;
    }
    if (!async.equals("false")) {
      throw QuestionInput.invalid("invalid-parameter", "Invalid parameter", "async must be true or false, was '" + async + "'");
    }
    respond(core.bus().ask(q, core.settings().answerTimeout()), resp, req);
  }

  private void ground(HttpServletRequest req, HttpServletResponse resp) throws IOException, AnswerTimeout, InterruptedException {
    QuestionInput in = QuestionInput.fromJson(body(req, resp), core.settings().questionMaxChars(), true);
    Outcome o = core.bus().ask(core.request(in, principal(req)), core.settings().answerTimeout());
    if (o instanceof Outcome.Answered a) {
      JsonResponses.json(resp, 200, OutcomeJson.grounding(a.event()));
    } else {
      JsonResponses.problem(req, resp, OutcomeJson.failureProblem(((Outcome.Failed) o).event()));
    }
  }

  private void fetch(String id, HttpServletRequest req, HttpServletResponse resp) throws IOException {
    PendingAnswers.Status s = core.bus().status(id);
    if (s instanceof PendingAnswers.Status.Done d) {
      respond(d.outcome(), resp, req);
    } else if (s instanceof PendingAnswers.Status.Pending) {
      JsonResponses.json(resp, 202, Map.of("query_id", id, "status", "pending"));
    } else {
      throw Problem.of(404, "unknown-query", "Unknown query", "query " + id + " is not known to this gateway (it keeps the "
          + core.settings().recentAnswers() + " most recent answers, gateway.recent.answers)").with("query_id", id).raise();
    }
  }

  private static void respond(Outcome o, HttpServletResponse resp, HttpServletRequest req) throws IOException {
    if (o instanceof Outcome.Answered a) {
      JsonResponses.json(resp, 200, OutcomeJson.answer(a.event()));
    } else {
      JsonResponses.problem(req, resp, OutcomeJson.failureProblem(((Outcome.Failed) o).event()));
    }
  }

  private static String principal(HttpServletRequest req) {
    return (String) req.getAttribute(GatewayFilter.PRINCIPAL);
  }

  /** The body, up to the limit (a chunked body declares no length, so it is counted here). */
  private String body(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    int limit = core.settings().maxBodyBytes();
    try (InputStream in = req.getInputStream()) {
      byte[] bytes = in.readNBytes(limit + 1);
      if (bytes.length > limit) {
        RefusedBodies.dropRest(in, resp);
        throw Problem.of(413, "body-too-large", "Body too large",
            "the body is over " + limit + " bytes (gateway.max.body.bytes)").raise();
      }
      if (bytes.length == 0) {
        throw QuestionInput.invalid("malformed-json", "Malformed JSON", "the body is empty; send a JSON object like {\"question\": \"...\"}");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
