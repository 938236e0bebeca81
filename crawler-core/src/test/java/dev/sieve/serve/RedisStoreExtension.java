package dev.sieve.serve;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.redis.RedisStore;
import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real redis-server and serve's Redis store on it (Sieves sized for 100,000 URLs) for the tests
 * of one class, started before them and stopped after: {@code @RegisterExtension static final
 * RedisStoreExtension redis = new RedisStoreExtension();}.
 */
final class RedisStoreExtension implements BeforeAllCallback, AfterAllCallback {
  private RedisServers servers;
  private FrontierStore store;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    servers = RedisServers.standalone();
    store = RedisStore.open(servers.uri(), QueueSettings.of(ServeSettings.builder()
        .frontier(servers.uri()).expectedUrls(100_000).build().frontierSettings()), 4);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Optional.ofNullable(store).ifPresent(FrontierStore::close);
    Optional.ofNullable(servers).ifPresent(RedisServers::close);
  }

  /** The server's URI. */
  String uri() {
    return servers.uri();
  }

  /** The store. */
  FrontierStore store() {
    return store;
  }

  /** Crawl {@code id} of the store, created if new. */
  CrawlStore crawl(String id) {
    return store.getOrCreate(id);
  }

  /** Runs one command through redis-cli against the server and returns its output. */
  String cli(String... args) throws IOException {
    return servers.cli(args);
  }
}
