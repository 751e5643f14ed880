package dev.schemarag.core.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Opens JDBC connections to one database; callers close what they open. */
@FunctionalInterface
public interface ConnectionSource {

  Connection open() throws SQLException;

  static ConnectionSource of(String url, String user, String password) {
    Properties p = new Properties();
    if (user != null && !user.isBlank()) {
      p.setProperty("user", user);
    }
    if (password != null && !password.isBlank()) {
      p.setProperty("password", password);
    }
    return () -> DriverManager.getConnection(url, p);
  }

  /**
   * The same database as another role: a {@code user} parameter in the URL would win over the
   * given user, so it is removed first.
   */
  static ConnectionSource asRole(String url, String role, String password) {
    return of(withoutUser(url), role, password);
  }

  /** The URL without its {@code user} parameter. */
  static String withoutUser(String url) {
    return url.replaceAll("([?&])user=[^&]*&?", "$1").replaceAll("[?&]$", "");
  }
}
