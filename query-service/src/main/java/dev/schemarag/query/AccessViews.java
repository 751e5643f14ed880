package dev.schemarag.query;

import dev.schemarag.core.access.SchemaView;
import dev.schemarag.core.access.ViewRedactor;
import dev.schemarag.core.retrieval.SchemaIndex;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What each role may read, cached: its {@link SchemaView} (read from the catalog at most every
 * {@code refreshMs}, and again after any captured DDL such as GRANT or REVOKE), and the database's
 * index as that role sees it, built once per loaded index and view.
 */
final class AccessViews {

  /** A role's index and the redactor for messages it reads, for one loaded index and view. */
  record RoleIndex(SchemaIndex base, SchemaView view, SchemaIndex index, ViewRedactor redactor) {}

  private record CachedView(SchemaView view, long readAtMs) {}

  private final Function<String, SchemaView> catalog;
  private final long refreshMs;
  private final Map<String, CachedView> views = new ConcurrentHashMap<>();
  private final Map<String, RoleIndex> indexes = new ConcurrentHashMap<>();

  /** @param catalog reads a role's view from the catalog */
  AccessViews(Function<String, SchemaView> catalog, long refreshMs) {
    this.catalog = catalog;
    this.refreshMs = refreshMs;
  }

  /** {@code base} as {@code role} sees it. */
  RoleIndex of(SchemaIndex base, String role) {
    long now = System.currentTimeMillis();
    CachedView v = views.compute(role, (r, old) -> old != null && now - old.readAtMs() < refreshMs ? old
        : new CachedView(catalog.apply(r), now));
    RoleIndex cached = indexes.get(role);
    if (cached != null && cached.base() == base && (cached.view() == v.view() || cached.view().equals(v.view()))) {
      return cached;
    }
    RoleIndex built = new RoleIndex(base, v.view(), base.restrictedTo(v.view()), new ViewRedactor(base.model(), v.view()));
    indexes.put(role, built);
    return built;
  }

  /** Privileges may have changed (a GRANT, a REVOKE, a new table): every role's view is read again. */
  void invalidate() {
    views.clear();
  }
}
