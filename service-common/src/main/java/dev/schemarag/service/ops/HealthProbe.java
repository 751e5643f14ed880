package dev.schemarag.service.ops;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@code java -cp '/app/libs/*' dev.schemarag.service.ops.HealthProbe URL}: exit 0 when URL
 * answers 200, else 1 with the answer (or why there was none) on stderr. A container health check
 * that needs nothing but the JRE the service runs on (the images need not carry curl or wget).
 */
public final class HealthProbe {
  private HealthProbe() {}

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: HealthProbe URL   (e.g. http://127.0.0.1:9403/health/ready)");
      System.exit(2);
    }
    System.exit(probe(args[0]));
  }

  /** 0 when {@code url} answers 200, else 1. */
  static int probe(String url) {
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        return 0;
      }
      System.err.print(url + " answered " + r.statusCode() + ": " + r.body());
      return 1;
    } catch (Exception e) {
      System.err.println(url + ": no answer: " + e);
      return 1;
    }
  }
}
