package dev.schemarag.service;

/**
 * The logging of a service process: INFO of schemarag, WARN of the libraries, to stdout. Logback's
 * own default would log every library at DEBUG. A {@code logback.xml} on the classpath (the CLI's,
 * when the demo runs the services in its JVM) or {@code -Dlogback.configurationFile} wins.
 */
public final class ServiceLogging {
  private ServiceLogging() {}

  static final String CONFIG = "dev/schemarag/service/service-logback.xml";

  /** Call first in a main, before any logger exists. */
  public static void configure() {
    if (System.getProperty("logback.configurationFile") == null && ServiceLogging.class.getResource("/logback.xml") == null) {
      System.setProperty("logback.configurationFile", CONFIG);
    }
  }
}
