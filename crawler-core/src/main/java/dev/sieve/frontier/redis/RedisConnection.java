package dev.sieve.frontier.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The pooled connections to one Redis server or cluster: scripts run by their SHA-1 (loaded where
 * the server lacks them), pipelines, and Redis failures turned into one-line I/O errors naming
 * Redis and what failed. Public for other users of the same Redis ({@code serve --frontier}).
 * Thread-safe.
 */
public final class RedisConnection implements AutoCloseable {
  /** The client; a failure of it is a {@link JedisException}, see {@link #failure}. */
  public final UnifiedJedis redis;
  final boolean cluster;
  /** The target as a URI, for messages. */
  final String where;

  private RedisConnection(UnifiedJedis redis, boolean cluster, String where) {
    this.redis = redis;
    this.cluster = cluster;
    this.where = where;
  }

  /**
   * Connects with a pool of {@code connections} (per node in a cluster) and checks Redis answers.
   *
   * @throws RedisFrontierException if Redis cannot be reached
   */
  /**
   * Connects to {@code redis://HOST:PORT[/DB]} (or {@code redis-cluster://…}).
   *
   * @throws IllegalArgumentException if the URI is malformed (the message names it)
   * @throws RedisFrontierException if Redis cannot be reached
   */
  public static RedisConnection open(String uri, int connections) {
    return open(RedisTarget.parse(uri), connections);
  }

  static RedisConnection open(RedisTarget target, int connections) {
    JedisClientConfig config = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(2000)
        .socketTimeoutMillis(10_000)
        .database(target.database())
        .clientName("sieve-crawler")
        .build();
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(connections);
    pool.setMaxIdle(connections);
    pool.setJmxEnabled(false);
    UnifiedJedis redis;
    try {
      redis = target.cluster()
          ? new JedisCluster(new HashSet<>(target.nodes()), config, 3, pool)
          : new JedisPooled(target.nodes().get(0), config, pool);
      redis.ping();
    } catch (JedisException e) {
      throw new RedisFrontierException(
          "cannot reach Redis at " + target.describe() + ": " + rootMessage(e), e);
    }
    return new RedisConnection(redis, target.cluster(), target.describe());
  }

  /** Whether this is Redis Cluster, where a script's keys must lie in one slot. */
  public boolean cluster() {
    return cluster;
  }

  /**
   * Runs {@code command} on the client; Redis failing is an I/O error naming Redis and {@code
   * what} ({@link #failure}).
   *
   * @throws UncheckedIOException if Redis fails
   */
  public <T> T command(String what, Function<UnifiedJedis, T> command) {
    try {
      return command.apply(redis);
    } catch (JedisException e) {
      throw failure(what, e);
    }
  }

  /**
   * Runs {@code script} ({@link #eval}); Redis failing is an I/O error naming Redis and {@code
   * what}.
   *
   * @throws UncheckedIOException if Redis fails
   */
  public Object run(String what, Script script, List<String> keys, List<String> args) {
    try {
      return eval(script, keys, args);
    } catch (JedisException e) {
      throw failure(what, e);
    }
  }

  public Object eval(Script script, List<String> keys, List<String> args) {
    try {
      return redis.evalsha(script.sha, keys, args);
    } catch (JedisNoScriptException e) {
      return redis.eval(script.source, keys, args);
    }
  }

  /** {@link #eval} with binary keys and arguments; a bulk string answer comes as bytes. */
  Object evalBinary(Script script, List<byte[]> keys, List<byte[]> args) {
    try {
      return redis.evalsha(script.shaBytes, keys, args);
    } catch (JedisNoScriptException e) {
      return redis.eval(script.sourceBytes, keys, args);
    }
  }

  AbstractPipeline pipelined() {
    return redis.pipelined();
  }

  /** Redis failing while the frontier is used: the message names Redis and {@code what}. */
  public UncheckedIOException failure(String what, JedisException e) {
    return new UncheckedIOException(new IOException(
        "Redis frontier at " + where + " failed to " + what + ": " + rootMessage(e), e));
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return root == e ? message : e.getMessage() + " (" + message + ")";
  }

  public static long asLong(Object value) {
    if (value instanceof Long number) {
      return number;
    }
    return Long.parseLong(asString(value));
  }

  public static String asString(Object value) {
    return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
        : String.valueOf(value);
  }

  @Override
  public void close() {
    redis.close();
  }

  /**
   * A script's source and SHA-1 (EVALSHA; EVAL loads it where the server lacks it). Scripts are
   * resources, {@code dev/sieve/frontier/redis/NAME.lua}, one per file; a line {@code --! include
   * FILE.lua} stands for that file's text (once per script), so scripts share their functions.
   */
  public static final class Script {
    /** Where the scripts lie on the class path. */
    static final String RESOURCES = "/dev/sieve/frontier/redis/";
    private static final String INCLUDE = "--! include ";

    final String source;
    final String sha;
    final byte[] sourceBytes;
    final byte[] shaBytes;

    /**
     * The script {@code NAME.lua} with its includes in place.
     *
     * @throws IllegalStateException if it or an include is missing from the class path
     */
    public static Script load(String name) {
      return new Script(assemble(name + ".lua", new HashSet<>()));
    }

    private static String assemble(String file, Set<String> included) {
      StringBuilder out = new StringBuilder();
      for (String line : read(file).split("\n", -1)) {
        if (line.startsWith(INCLUDE)) {
          String library = line.substring(INCLUDE.length()).strip();
          if (included.add(library)) {
            out.append(assemble(library, included));
          }
        } else {
          out.append(line).append('\n');
        }
      }
      return out.toString();
    }

    private static String read(String file) {
      try (InputStream in = Script.class.getResourceAsStream(RESOURCES + file)) {
        if (in == null) {
          throw new IllegalStateException("Lua script " + RESOURCES + file
              + " is missing from the class path");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read Lua script " + RESOURCES + file, e);
      }
    }

    Script(String source) {
      this.source = source;
      this.sourceBytes = source.getBytes(StandardCharsets.UTF_8);
      try {
        this.sha = HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-1").digest(sourceBytes));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-1 is missing from this JVM", e);
      }
      this.shaBytes = sha.getBytes(StandardCharsets.US_ASCII);
    }
  }
}
