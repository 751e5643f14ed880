package dev.schemarag.infra;

/** The local stack cannot be brought up here; the message says what to install or set instead. */
public class LocalInfraException extends RuntimeException {
  public LocalInfraException(String message) {
    super(message);
  }

  public LocalInfraException(String message, Throwable cause) {
    super(message, cause);
  }
}
