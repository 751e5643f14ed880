package dev.schemarag.core.config;

import dev.schemarag.core.text.EditDistance;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a mistyped one most likely meant, for "did you mean". Names are compared word by
 * word (split on '.', '_' and '-', case ignored): a name of the same group (first word) comes
 * first, then the one sharing most words, then the nearest by edit distance. Edit distance alone
 * would offer local.dir for docs.dir, one edit nearer than docs.root.
 */
final class ClosestName {
  private ClosestName() {}

  /** Names of another group are offered only this near. */
  private static final int NEAR = 3;

  private record Candidate(String name, boolean sameGroup, long sharedWords, int distance) {}

  static Optional<String> among(String unknown, Collection<String> known) {
    List<String> words = words(unknown);
    return known.stream()
        .map(name -> {
          List<String> w = words(name);
          return new Candidate(name, w.get(0).equals(words.get(0)), w.stream().filter(words::contains).count(),
              EditDistance.between(String.join(".", words), String.join(".", w)));
        })
        .filter(c -> c.sameGroup() || c.distance() <= NEAR)
        .min(Comparator.comparing((Candidate c) -> !c.sameGroup())
            .thenComparing(Comparator.comparingLong(Candidate::sharedWords).reversed())
            .thenComparingInt(Candidate::distance))
        .map(Candidate::name);
  }

  private static List<String> words(String name) {
    return Arrays.asList(name.toLowerCase(Locale.ROOT).split("[._-]", -1));
  }
}
