package dev.schemarag.gateway;

import dev.schemarag.core.config.ConfigKeys;
import dev.schemarag.core.config.SchemaragConfig;
import java.time.Duration;

/** The gateway's configuration ({@code gateway.*} keys), checked once at start. */
public record GatewaySettings(String host, int port, BearerTokens tokens, Duration answerTimeout, int maxBodyBytes, int ratePerMinute,
                              int questionMaxChars, OriginPolicy origins, int recentAnswers) {

  public static GatewaySettings from(SchemaragConfig config) {
    int port = config.getInt(ConfigKeys.GATEWAY_PORT);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("gateway.http.port must be 0..65535, was " + port);
    }
    int body = config.getInt(ConfigKeys.GATEWAY_MAX_BODY);
    int chars = config.getInt(ConfigKeys.QUESTION_MAX_CHARS);
    long timeout = config.getInt(ConfigKeys.GATEWAY_TIMEOUT_MS);
    if (body < 256 || chars < 1 || timeout < 1) {
      throw new IllegalArgumentException("gateway.max.body.bytes must be at least 256, question.max.chars and"
          + " gateway.answer.timeout.ms at least 1");
    }
    return new GatewaySettings(config.get(ConfigKeys.GATEWAY_HOST), port, BearerTokens.parse(config.get(ConfigKeys.GATEWAY_TOKENS)),
        Duration.ofMillis(timeout), body, config.getInt(ConfigKeys.GATEWAY_RATE), chars,
        OriginPolicy.parse(config.get(ConfigKeys.GATEWAY_ORIGINS)), config.getInt(ConfigKeys.GATEWAY_RECENT));
  }
}
