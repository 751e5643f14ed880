package dev.schemarag.core.store;

/** A failure of the vector store or its cache, with the database's message. */
public class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
