package dev.schemarag.gateway;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;

/**
 * What happens to the rest of a body the gateway refuses (413): up to a bound it is read and
 * dropped, as servlet containers swallow, so the client's keep-alive connection stays usable;
 * closing a connection with unread bytes can reset it under the client's next request. Past the
 * bound the response says {@code Connection: close}, so the client does not send on it again.
 */
final class RefusedBodies {

  /** How much of a refused body is still read and dropped; beyond it the connection is given up. */
  static final long MAX_SWALLOWED_BYTES = 2L * 1024 * 1024;

  private RefusedBodies() {}

  /** Reads the rest of {@code in} up to the bound; closes the connection after the response when the body goes on. */
  static void dropRest(InputStream in, HttpServletResponse resp) throws IOException {
    byte[] sink = new byte[8192];
    long read = 0;
    while (read <= MAX_SWALLOWED_BYTES) {
      int n = in.read(sink, 0, sink.length);
      if (n < 0) {
        return;
      }
      read += n;
    }
    resp.setHeader("Connection", "close");
  }
}
