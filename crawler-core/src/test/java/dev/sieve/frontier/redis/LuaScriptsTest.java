package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.redis.RedisConnection.Script;
import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Every Lua script (the crawl's and serve's, in {@code resources/dev/sieve/frontier/redis}) is
 * compiled by a real redis-server (SCRIPT LOAD), as its file and as loaded with its includes, and
 * Java keeps no Lua text of its own.
 */
class LuaScriptsTest {
  private static RedisServers redis;
  private static JedisPooled client;

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisServers.standalone();
    client = new JedisPooled("127.0.0.1", redis.port());
  }

  @AfterAll
  static void stopRedis() {
    Optional.ofNullable(client).ifPresent(JedisPooled::close);
    Optional.ofNullable(redis).ifPresent(RedisServers::close);
  }

  private static List<Path> luaFiles() throws IOException, URISyntaxException {
    // The directory of a known script: test-classes has a directory of the same package too.
    Path dir = Path.of(Script.class.getResource(Script.RESOURCES + "lib-sieve.lua").toURI())
        .getParent();
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".lua")).sorted().toList();
    }
  }

  @Test
  void everyLuaFile_compilesInRedis_asFileAndWithItsIncludes() throws Exception {
    List<Path> files = luaFiles();
    assertThat(files).hasSizeGreaterThan(15);
    List<String> failures = new ArrayList<>();
    for (Path file : files) {
      String name = file.getFileName().toString();
      try {
        client.scriptLoad(Files.readString(file, StandardCharsets.UTF_8));
        Script script = Script.load(name.substring(0, name.length() - ".lua".length()));
        assertThat(client.scriptLoad(script.source)).as(name).isEqualTo(script.sha);
      } catch (JedisDataException e) {
        failures.add(name + ": " + e.getMessage());
      }
    }
    assertThat(failures).as("scripts Redis could not compile").isEmpty();
  }

  @Test
  void aScriptWithASyntaxError_isRefusedByRedis() {
    assertThatThrownBy(() -> client.scriptLoad("local x = = 1"))
        .isInstanceOf(JedisDataException.class).hasMessageContaining("Error compiling script");
  }

  @Test
  void includes_areInlinedOnce_evenWhenTwoLibrariesIncludeTheSame() {
    // serve-put includes lib-serve-shard (which includes lib-serve-keys) and lib-sieve.
    String put = Script.load("serve-put").source;

    assertThat(put).doesNotContain("--! include");
    assertThat(put.split("local function wk\\(", -1)).hasSize(2);
    assertThat(put).contains("local function sieve_begin(").contains("local function rescore(");
  }

  @Test
  void everyScriptThatAdmitsUrls_checksTheSieveWithTheOneLibrary() {
    String library = Script.load("lib-sieve").source;

    assertThat(Script.load("serve-put").source).contains(library);
    assertThat(Script.load("serve-status").source).contains(library);
  }

  @Test
  void sieveBlocks_setByAPush_areSeenByTheNext() {
    FilterLayer layer = new FilterLayer("blocks", true, 0, 4096, 20, 10_000, 1 << 20);
    List<Hash128> pushed = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      pushed.add(Hash128.of("http://a.test/" + i));
    }
    List<?> out = push(layer, pushed, "entry");
    assertThat(out.subList(0, 50)).isEqualTo(Collections.nCopies(50, 1L));

    List<Hash128> again = new ArrayList<>(pushed);
    for (int i = 50; i < 60; i++) {
      again.add(Hash128.of("http://a.test/" + i));
    }
    List<?> second = push(layer, again, "again");

    for (int i = 0; i < 60; i++) {
      assertThat(second.get(i)).as("URL %d", i).isEqualTo(i < 50 ? 0L : 1L);
    }
  }

  @Test
  void sieveBlock_changedByAnotherCallSinceItWasRead_keepsBothCallsBitsAndCountsEachOnce() {
    // One block: every URL of both calls lies in it, and both calls read it empty.
    FilterLayer layer = new FilterLayer("merge", true, 0, 1, 20, 10, 1 << 20);
    List<Hash128> first = List.of(Hash128.of("http://a.test/1"), Hash128.of("http://a.test/2"));
    List<Hash128> second = List.of(Hash128.of("http://b.test/1"), Hash128.of("http://a.test/2"),
        Hash128.of("http://b.test/2"));
    try (RedisConnection connection = connect()) {
      FilterCall early = call(connection, layer, first, "early");
      FilterCall late = call(connection, layer, second, "late");
      List<?> earlyOut = (List<?>) connection.evalBinary(Script.load("test-sieve-push"), early.keys,
          early.args);
      List<?> lateOut = (List<?>) connection.evalBinary(Script.load("test-sieve-push"), late.keys,
          late.args);

      assertThat(earlyOut.subList(0, 2)).isEqualTo(List.of(1L, 1L));
      assertThat(lateOut.subList(0, 3)).as("the URL the early call set is seen")
          .isEqualTo(List.of(1L, 0L, 1L));
      long setBits = client.bitcount(layer.segmentKey(0));
      assertThat(RedisConnection.asLong(lateOut.get(lateOut.size() - 1))).as("the counter")
          .isEqualTo(setBits);
      assertThat(client.get(layer.countKey(0))).isEqualTo(Long.toString(setBits));
      List<?> again = push(layer, List.of(first.get(0), first.get(1), second.get(0),
          second.get(2), Hash128.of("http://c.test/")), "again");
      assertThat(again.subList(0, 5)).isEqualTo(List.of(0L, 0L, 0L, 0L, 1L));
    }
  }

  private static RedisConnection connect() {
    return RedisConnection.open("redis://127.0.0.1:" + redis.port(), 2);
  }

  private static List<?> push(FilterLayer layer, List<Hash128> urls, String entry) {
    try (RedisConnection connection = connect()) {
      FilterCall call = call(connection, layer, urls, entry);
      return (List<?>) connection.evalBinary(Script.load("test-sieve-push"), call.keys, call.args);
    }
  }

  private static FilterCall call(RedisConnection connection, FilterLayer layer, List<Hash128> urls,
      String entry) {
    List<List<String>> payloads = new ArrayList<>();
    for (int i = 0; i < urls.size(); i++) {
      payloads.add(List.of("h" + i + ".test", entry + i));
    }
    return new FilterCall(connection, List.of(layer), false, List.of("sieve:{crawl}:stats"),
        urls.toArray(new Hash128[0]), FilterRequest.of(List.of("sieve:{crawl}:", "1000", "1"),
            payloads));
  }

  @Test
  void aMissingScript_failsNamingIt() {
    assertThatThrownBy(() -> Script.load("no-such-script"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no-such-script.lua is missing");
  }

  @Test
  void javaSources_keepNoLuaText() throws IOException {
    Path main = Path.of("src/main/java");
    List<String> withLua = new ArrayList<>();
    try (Stream<Path> files = Files.walk(main)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file);
        if (text.contains("redis.call(")) {
          withLua.add(main.relativize(file).toString());
        }
      }
    }
    assertThat(withLua).as("Java files holding Lua").isEmpty();
  }
}
