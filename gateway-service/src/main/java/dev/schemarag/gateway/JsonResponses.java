package dev.schemarag.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Writes JSON bodies and RFC 9457 problems. */
final class JsonResponses {
  private JsonResponses() {}

  static final ObjectMapper JSON = new ObjectMapper();

  static void json(HttpServletResponse resp, int status, Object body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setCharacterEncoding(StandardCharsets.UTF_8.name());
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }

  static void problem(HttpServletRequest req, HttpServletResponse resp, Problem p) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(p.toJson(req.getRequestURI()));
    resp.setStatus(p.status());
    resp.setContentType(Problem.MEDIA_TYPE);
    resp.setCharacterEncoding(StandardCharsets.UTF_8.name());
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }
}
