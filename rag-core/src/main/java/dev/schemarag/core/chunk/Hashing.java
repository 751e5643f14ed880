package dev.schemarag.core.chunk;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 helpers for ids and content hashes. */
public final class Hashing {
  private Hashing() {}

  public static String sha256(String... parts) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (String p : parts) {
        md.update(p.getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0); // separator: ("ab","c") and ("a","bc") differ
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
