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
    assertThat(files).hasSizeGreaterThan(20);
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
    String push = Script.load("crawl-push").source;

    assertThat(push).doesNotContain("--! include");
    assertThat(push.split("local function admit\\(", -1)).hasSize(2);
    assertThat(push).contains("local function sieve_begin(").contains("local function enqueue(");
  }

  @Test
  void crawlAndServe_checkTheSieveWithTheSameLibrary() {
    String library = Script.load("lib-sieve").source;

    assertThat(Script.load("crawl-push").source).contains(library);
    assertThat(Script.load("serve-put").source).contains(library);
  }

  @Test
  void sieveBlocks_setByAPush_areTheBitsBitfieldReadsForTheCluster() {
    FilterLayer layer = new FilterLayer("blocks", true, 0, 4096, 20, 10_000, 1 << 20);
    List<Hash128> pushed = new ArrayList<>();
    List<List<String>> payloads = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      pushed.add(Hash128.of("http://a.test/" + i));
      payloads.add(List.of("a.test", "entry" + i));
    }
    FilterCall call = new FilterCall(List.of(layer), false, List.of("sieve:{blocks}:stats"),
        List.of("sieve:{blocks}:", "1000", "1"), pushed.toArray(new Hash128[0]), payloads);
    client.eval(Script.load("crawl-push").source, call.keys, call.args);

    String check = Script.load("filter-check").source;
    int[] positions = new int[20];
    for (int i = 0; i < 60; i++) {
      String[] offsets = new String[20];
      int segment = layer.locate(Hash128.of("http://a.test/" + i), offsets, positions);
      List<String> args = new ArrayList<>(List.of("20"));
      args.addAll(List.of(offsets));
      Object held = client.eval(check, List.of(layer.segmentKey(segment)), args);
      assertThat(held).as("URL %d", i).isEqualTo(List.of(i < 50 ? 1L : 0L));
    }
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
