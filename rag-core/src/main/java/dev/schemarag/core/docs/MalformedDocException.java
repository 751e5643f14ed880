package dev.schemarag.core.docs;

/** A schema doc that does not follow the format; the message says where. */
public class MalformedDocException extends RuntimeException {
  public MalformedDocException(String message) {
    super(message);
  }
}
