package dev.sieve.frontier.redis;

import java.util.List;

/**
 * What a script call over a seen filter sends beside the filter's own arguments, decided once the
 * URLs' blocks were read ({@link FilterCall}): the script's header, and which URLs go to the
 * script with which payload. A URL the read found seen stays seen (bits are only ever set:
 * the script would answer the same), so a caller may answer it without the script.
 */
interface FilterRequest {
  /** The script's header, given which URLs the read found seen; called once per attempt. */
  List<String> header(boolean[] seen);

  /** Whether URL {@code i} goes to the script, given whether the read found it seen. */
  default boolean sends(int i, boolean seen) {
    return true;
  }

  /** The arguments the script reads for URL {@code i} before its filter arguments. */
  List<String> payload(int i);

  /** A request that sends every URL, with a fixed header. */
  static FilterRequest of(List<String> header, List<List<String>> payloads) {
    return new FilterRequest() {
      @Override
      public List<String> header(boolean[] seen) {
        return header;
      }

      @Override
      public List<String> payload(int i) {
        return payloads.get(i);
      }
    };
  }
}
