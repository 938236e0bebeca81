package dev.sieve.testing;

/**
 * Deterministic, realistic URL keys (40–120 characters) for filter tests and benchmarks. Keys with
 * different {@code (stream, index)} are distinct, so two streams give disjoint sets.
 */
public final class SyntheticUrls {
  private static final String[] SECTIONS = {
    "news", "blog/2024", "products/category", "wiki", "forum/thread", "docs/reference/api",
    "shop/items", "en/articles",
  };

  private SyntheticUrls() {}

  /** The {@code index}-th URL of {@code stream}. */
  public static String url(int stream, long index) {
    long mixed = mix(index * 31 + stream);
    int host = (int) ((mixed >>> 8) % 5000);
    String section = SECTIONS[(int) (mixed & 7)];
    StringBuilder url = new StringBuilder(120)
        .append("https://www.site").append(host).append(".example.com/")
        .append(section).append('/').append(stream)
        .append("/item-").append(index).append('-').append(Long.toHexString(mixed >>> 44))
        .append(".html");
    if ((mixed & 0x100) != 0) {
      url.append("?utm_source=feed&page=").append((mixed >>> 20) & 63);
    }
    return url.toString();
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
