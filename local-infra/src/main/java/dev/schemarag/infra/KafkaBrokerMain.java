package dev.schemarag.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * {@code java -jar local-infra.jar DIR PORT CONTROLLER_PORT}: a one-node KRaft broker as its own
 * JVM, on 127.0.0.1, until SIGTERM ({@code ./schemarag up} runs it). Its data lives in
 * {@code DIR/data}, formatted on the first start and kept afterwards, so a broker restarted on the
 * same directory and ports has its topics, offsets and transactions again.
 */
public final class KafkaBrokerMain {
  private KafkaBrokerMain() {}

  public static void main(String[] args) throws Exception {
    if (System.getProperty("logback.configurationFile") == null && KafkaBrokerMain.class.getResource("/logback.xml") == null) {
      System.setProperty("logback.configurationFile", "dev/schemarag/infra/broker-logback.xml");
    }
    if (args.length != 3) {
      System.err.println("usage: KafkaBrokerMain DIR PORT CONTROLLER_PORT");
      System.exit(2);
    }
    Path dir = Path.of(args[0]).toAbsolutePath();
    int port = port(args[1], "PORT");
    int controllerPort = port(args[2], "CONTROLLER_PORT");
    Files.createDirectories(dir);
    Properties props = KraftBrokerConfig.properties(dir.resolve("data"), port, controllerPort);
    Path propsFile = dir.resolve("server.properties");
    // --ignore-formatted: a restart keeps the data of the first start.
    KraftBrokerConfig.format(props, propsFile);
    kafka.Kafka.main(new String[] {propsFile.toString()});
  }

  private static int port(String value, String name) {
    try {
      int p = Integer.parseInt(value);
      if (p > 0 && p <= 65535) {
        return p;
      }
    } catch (NumberFormatException e) {
      // below
    }
    System.err.println(name + " must be a TCP port (1 to 65535), was '" + value + "'");
    System.exit(2);
    return -1;
  }
}
