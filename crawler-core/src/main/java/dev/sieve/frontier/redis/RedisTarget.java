package dev.sieve.frontier.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;

/** Where and how to connect: {@code redis://HOST:PORT[/DB]} or {@code redis-cluster://H:P,H:P}. */
record RedisTarget(boolean cluster, List<HostAndPort> nodes, int database) {
  static RedisTarget parse(String uri) {
    String text = uri.strip();
    boolean cluster = text.startsWith("redis-cluster://");
    if (!cluster && !text.startsWith("redis://")) {
      throw new IllegalArgumentException("frontier (" + uri + ") must be local,"
          + " redis://HOST:PORT[/DB] or redis-cluster://HOST:PORT[,HOST:PORT...]");
    }
    String rest = text.substring(text.indexOf("://") + 3);
    int database = 0;
    int slash = rest.indexOf('/');
    if (slash >= 0) {
      String db = rest.substring(slash + 1);
      rest = rest.substring(0, slash);
      if (!db.isEmpty()) {
        if (cluster) {
          throw new IllegalArgumentException("frontier (" + uri + "): Redis Cluster has no"
              + " databases, drop /" + db);
        }
        try {
          database = Integer.parseInt(db);
        } catch (NumberFormatException e) {
          database = -1;
        }
        if (database < 0) {
          throw new IllegalArgumentException("frontier (" + uri + "): database '" + db
              + "' must be a number >= 0");
        }
      }
    }
    List<HostAndPort> nodes = new ArrayList<>();
    for (String node : rest.split(",")) {
      int colon = node.lastIndexOf(':');
      String hostName = colon < 0 ? node : node.substring(0, colon);
      int port = 6379;
      if (colon >= 0) {
        try {
          port = Integer.parseInt(node.substring(colon + 1));
        } catch (NumberFormatException e) {
          port = -1;
        }
      }
      if (hostName.isEmpty() || port < 1 || port > 65535) {
        throw new IllegalArgumentException("frontier (" + uri + "): '" + node
            + "' is not HOST:PORT");
      }
      nodes.add(new HostAndPort(hostName, port));
    }
    if (!cluster && nodes.size() != 1) {
      throw new IllegalArgumentException("frontier (" + uri + "): redis:// takes one"
          + " HOST:PORT; use redis-cluster:// for several");
    }
    return new RedisTarget(cluster, List.copyOf(nodes), database);
  }

  /** The target as a URI, e.g. {@code redis://127.0.0.1:6379/2}, for messages. */
  String describe() {
    StringBuilder text = new StringBuilder(cluster ? "redis-cluster://" : "redis://");
    for (int i = 0; i < nodes.size(); i++) {
      text.append(i == 0 ? "" : ",").append(nodes.get(i));
    }
    return database == 0 ? text.toString() : text + "/" + database;
  }
}
