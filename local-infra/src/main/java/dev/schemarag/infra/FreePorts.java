package dev.schemarag.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Free TCP ports for one stack: no port is handed out twice, nor one reserved as given. The
 * kernel may hand the same free port to two binds in a row once the first socket is closed, and
 * a broker whose client and controller listeners share a port refuses to start.
 */
public final class FreePorts {
  private final Set<Integer> handedOut = new HashSet<>();

  /** A port free on the loopback interface now, not handed out or reserved before by this instance. */
  public synchronized int next() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = bindAny();
      if (handedOut.add(port)) {
        return port;
      }
    }
    throw new UncheckedIOException(new IOException("no free TCP port that was not handed out already"));
  }

  /** A port chosen elsewhere (configured): never handed out by {@link #next()}. */
  public synchronized int reserve(int port) {
    handedOut.add(port);
    return port;
  }

  private static int bindAny() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free TCP port", e);
    }
  }
}
