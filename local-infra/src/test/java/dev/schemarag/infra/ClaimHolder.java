package dev.schemarag.infra;

/** Another process that claims a cluster, says so on its output, and holds the claim until its input closes. */
public final class ClaimHolder {
  private ClaimHolder() {}

  public static void main(String[] args) throws Exception {
    try (LocalPostgres.Claim claim = new LocalPostgres(args[0]).claim()) {
      System.out.println("claimed");
      System.out.flush();
      while (System.in.read() >= 0) {
        // Held until the parent closes our input.
      }
    }
  }
}
