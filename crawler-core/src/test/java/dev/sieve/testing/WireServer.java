package dev.sieve.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small HTTP/1.1 server on 127.0.0.1 that writes exactly the bytes of the {@link HttpReply} its
 * handler returns (no {@code Date}, no added fields) and keeps every exchange: the request head
 * as received and the bytes written. Connections stay open between requests unless the request
 * or the reply says {@code Connection: close}; idle ones close after 30 s. Thread-safe.
 */
public final class WireServer implements AutoCloseable {
  private static final int MAX_HEAD_BYTES = 64 * 1024;
  private static final int IDLE_MILLIS = 30_000;

  /** Answers one request; called on the connection's thread. */
  @FunctionalInterface
  public interface Handler {
    HttpReply reply(Request request);
  }

  /** A request as received: its line's parts, its header fields, and its head's exact bytes. */
  public record Request(String method, String target, List<HttpReply.Field> fields, byte[] head) {
    public Optional<String> field(String name) {
      return fields.stream().filter(f -> f.name().equalsIgnoreCase(name))
          .map(HttpReply.Field::value).findFirst();
    }
  }

  /** One request and what was written back: {@code wire} is every byte sent for it. */
  public record Exchange(Request request, HttpReply reply, byte[] wire) {}

  private final Handler handler;
  private final ServerSocket socket;
  private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "wire-server");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final List<Exchange> log = Collections.synchronizedList(new ArrayList<>());

  private WireServer(Handler handler) throws IOException {
    this.handler = handler;
    this.socket = new ServerSocket(0, 256, InetAddress.getByName("127.0.0.1"));
    connections.execute(this::accept);
  }

  /** Starts serving on a free loopback port. */
  public static WireServer start(Handler handler) throws IOException {
    return new WireServer(handler);
  }

  public int port() {
    return socket.getLocalPort();
  }

  /** {@code http://127.0.0.1:port} followed by {@code target} (path and query). */
  public String url(String target) {
    return "http://127.0.0.1:" + port() + target;
  }

  /** Every exchange so far, in the order the replies were written. */
  public List<Exchange> exchanges() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /** The exchanges whose request target was {@code target}. */
  public List<Exchange> exchanges(String target) {
    return exchanges().stream().filter(e -> e.request().target().equals(target)).toList();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        open.add(connection);
        connections.execute(() -> serve(connection));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket connection) {
    try (connection) {
      connection.setTcpNoDelay(true);
      connection.setSoTimeout(IDLE_MILLIS);
      InputStream in = new BufferedInputStream(connection.getInputStream());
      OutputStream out = connection.getOutputStream();
      Request request;
      while ((request = readRequest(in)) != null) {
        HttpReply reply = reply(request);
        byte[] wire = request.method().equals("HEAD") ? reply.head() : reply.wire();
        log.add(new Exchange(request, reply, wire));
        out.write(wire);
        out.flush();
        if (says(request.field("Connection"), "close") || says(reply.field("Connection"), "close")) {
          return;
        }
      }
    } catch (IOException e) {
      // The client went away or idled out; nothing to answer.
    } finally {
      open.remove(connection);
    }
  }

  private HttpReply reply(Request request) {
    try {
      return handler.reply(request);
    } catch (RuntimeException e) {
      return HttpReply.of(500, "Internal Server Error", "text/plain", e.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  private static boolean says(Optional<String> value, String token) {
    return value.map(v -> v.trim().equalsIgnoreCase(token)).orElse(false);
  }

  /** The next request's head (its body, if any, is read and dropped), or null at the end. */
  private static Request readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      if (head.size() >= MAX_HEAD_BYTES) {
        throw new IOException("request head over " + MAX_HEAD_BYTES + " bytes");
      }
      head.write(b);
      matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    if (requestLine.length != 3) {
      throw new IOException("bad request line: " + lines[0]);
    }
    List<HttpReply.Field> fields = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        fields.add(new HttpReply.Field(lines[i].substring(0, colon), lines[i].substring(colon + 1).trim()));
      }
    }
    Request request = new Request(requestLine[0], requestLine[1], List.copyOf(fields), head.toByteArray());
    long length = request.field("Content-Length").map(Long::parseLong).orElse(0L);
    if (length < 0) {
      throw new IOException("bad Content-Length: " + length);
    }
    in.skipNBytes(length);
    return request;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    for (Socket connection : open) {
      try {
        connection.close();
      } catch (IOException e) {
        // Closing anyway.
      }
    }
    connections.shutdownNow();
  }
}
