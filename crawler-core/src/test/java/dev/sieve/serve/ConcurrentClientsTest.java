package dev.sieve.serve;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.testing.Concurrently;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Several clients at once: a URL is created once, and a lease goes to one client only. */
@ParameterizedClass
@EnumSource(ServeFixture.Store.class)
class ConcurrentClientsTest {
  private static final int CLIENTS = 4;
  private static final int URLS = 2_000;

  @Parameter ServeFixture.Store store;
  private ServeFixture serve;
  private ExecutorService pool;

  @BeforeEach
  void start() throws Exception {
    serve = new ServeFixture(store, ServeSettings.builder().queueDelaySeconds(0));
    pool = Executors.newFixedThreadPool(CLIENTS);
  }

  @AfterEach
  void stop() throws Exception {
    pool.shutdownNow();
    serve.close();
  }

  private static List<URLItem> sameUrls() {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < URLS; i++) {
      items.add(discovered("http://h" + (i % 20) + ".test/" + i));
    }
    return items;
  }

  @Test
  void put_sameUrlsFromManyStreams_eachCreatedOnce() throws Exception {
    int created = Concurrently.sum(pool, CLIENTS, client -> (int) serve.put(sameUrls()).stream()
        .filter(ack -> ack.getStatus() == AckMessage.Status.OK).count());

    assertThat(created).isEqualTo(URLS);
    assertThat(serve.stats("", "").getSize()).isEqualTo(URLS);
  }

  @Test
  void get_manyClientsAtOnce_eachUrlLeasedToOneClient() throws Exception {
    serve.put(sameUrls());
    Set<String> handedOut = ConcurrentHashMap.newKeySet();
    GetParams few = GetParams.newBuilder().setMaxUrlsPerQueue(3).setMaxQueues(5)
        .setDelayRequestable(600).build();

    int total = Concurrently.sum(pool, CLIENTS, client -> {
      int got = 0;
      for (List<String> batch = serve.get(few); !batch.isEmpty(); batch = serve.get(few)) {
        handedOut.addAll(batch);
        got += batch.size();
        for (String url : batch) {
          serve.put(FrontierClient.known(url, 0));
        }
      }
      return got;
    });

    assertThat(total).as("no URL handed out twice").isEqualTo(URLS);
    assertThat(handedOut).hasSize(URLS);
    assertThat(serve.stats("", "").getCountsMap()).containsEntry("completed", (long) URLS);
  }
}
