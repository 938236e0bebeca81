package dev.sieve.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A generated site of many hosts on loopback addresses ({@code 127.0.1.1}, {@code 127.0.1.2}, …,
 * {@code 127.0.2.1}, …; Linux routes all of 127/8 to the loopback interface), one port for all,
 * each host with {@code pages} pages linked as a tree from {@code /p/0.html}. Every answer comes
 * after {@code latency}, like a distant server's, from one selector thread: a waiting request
 * holds no thread. HTTP/1.1 with keep-alive; {@code /robots.txt} is a 404. Counts TCP
 * connections per host, requests per page, and the most requests waiting at once.
 */
final class ManyHostSite implements AutoCloseable {
  /** Addresses per third octet: .1 to .254. */
  private static final int PER_OCTET = 254;
  private static final int LINKS = 4;
  private static final Pattern PAGE = Pattern.compile("/p/(\\d{1,9})\\.html");
  private static final String FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(20);

  private final int hosts;
  private final int pages;
  private final long latencyNanos;
  private final Selector selector;
  private final List<ServerSocketChannel> listeners = new ArrayList<>();
  private final AtomicIntegerArray connections;
  private final AtomicIntegerArray fetches;
  private final AtomicLong requests = new AtomicLong();
  private final PriorityQueue<Due> due = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
  private final Thread loop;
  private final int port;
  private volatile boolean closed;
  private int waiting;
  private volatile int mostWaiting;

  /** An answer to send at {@code at} (System.nanoTime). */
  private record Due(long at, Connection connection, ByteBuffer answer) {}

  /** One accepted connection: the bytes of its request so far, and the answer being written. */
  private static final class Connection {
    final SocketChannel channel;
    final int host;
    final ByteBuffer in = ByteBuffer.allocate(8192);
    ByteBuffer out;

    Connection(SocketChannel channel, int host) {
      this.channel = channel;
      this.host = host;
    }
  }

  ManyHostSite(int hosts, int pages, long latencyMillis) throws IOException {
    if (hosts < 1 || hosts > PER_OCTET * PER_OCTET) {
      throw new IllegalArgumentException("--hosts (" + hosts + ") must be in [1, " + PER_OCTET * PER_OCTET + "]");
    }
    this.hosts = hosts;
    this.pages = pages;
    this.latencyNanos = latencyMillis * 1_000_000;
    this.connections = new AtomicIntegerArray(hosts);
    this.fetches = new AtomicIntegerArray(hosts * pages);
    this.selector = Selector.open();
    int bound = 0;
    for (int host = 0; host < hosts; host++) {
      ServerSocketChannel listener = ServerSocketChannel.open();
      listener.bind(new InetSocketAddress(address(host), bound), 1024);
      if (host == 0) {
        bound = ((InetSocketAddress) listener.getLocalAddress()).getPort();
      }
      listener.configureBlocking(false);
      listener.register(selector, SelectionKey.OP_ACCEPT, host);
      listeners.add(listener);
    }
    this.port = bound;
    this.loop = new Thread(this::serve, "many-host-site");
    loop.setDaemon(true);
    loop.start();
  }

  /** The address of host {@code host} (0-based): 127.0.1.1 for the first. */
  static String address(int host) {
    return "127.0." + (1 + host / PER_OCTET) + "." + (1 + host % PER_OCTET);
  }

  /** Every host's first page, from which all its pages are reachable. */
  List<String> seeds() {
    List<String> seeds = new ArrayList<>(hosts);
    for (int host = 0; host < hosts; host++) {
      seeds.add("http://" + address(host) + ":" + port + "/p/0.html");
    }
    return seeds;
  }

  int hosts() {
    return hosts;
  }

  /** TCP connections accepted, over all hosts. */
  long connections() {
    long sum = 0;
    for (int host = 0; host < hosts; host++) {
      sum += connections.get(host);
    }
    return sum;
  }

  /** The most TCP connections one host accepted. */
  int mostConnectionsOfAHost() {
    int most = 0;
    for (int host = 0; host < hosts; host++) {
      most = Math.max(most, connections.get(host));
    }
    return most;
  }

  /** Pages requested at least once / more than once. */
  int[] pagesFetched() {
    int once = 0;
    int again = 0;
    for (int i = 0; i < fetches.length(); i++) {
      int n = fetches.get(i);
      once += n > 0 ? 1 : 0;
      again += n > 1 ? 1 : 0;
    }
    return new int[] {once, again};
  }

  /** Requests answered or waiting, robots.txt and others included. */
  long requests() {
    return requests.get();
  }

  /** The most requests waiting for their answer at once. */
  int mostWaiting() {
    return mostWaiting;
  }

  private void serve() {
    try {
      while (!closed) {
        long wait = due.isEmpty() ? 0 : Math.max(1, (due.peek().at - System.nanoTime()) / 1_000_000);
        if (due.isEmpty() || due.peek().at > System.nanoTime()) {
          selector.select(wait);
        } else {
          selector.selectNow();
        }
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (!key.isValid()) {
            continue;
          }
          if (key.isAcceptable()) {
            accept(key);
          } else if (key.isReadable()) {
            read(key);
          } else if (key.isWritable()) {
            write(key, (Connection) key.attachment());
          }
        }
        answerDue();
      }
    } catch (IOException e) {
      if (!closed) {
        System.err.println("bench web: the site stopped: " + e);
      }
    }
  }

  private void accept(SelectionKey key) throws IOException {
    SocketChannel channel = ((ServerSocketChannel) key.channel()).accept();
    if (channel == null) {
      return;
    }
    int host = (Integer) key.attachment();
    connections.incrementAndGet(host);
    channel.configureBlocking(false);
    channel.register(selector, SelectionKey.OP_READ, new Connection(channel, host));
  }

  private void read(SelectionKey key) {
    Connection connection = (Connection) key.attachment();
    try {
      if (connection.channel.read(connection.in) < 0) {
        close(key);
        return;
      }
    } catch (IOException e) {
      close(key);
      return;
    }
    String request = new String(connection.in.array(), 0, connection.in.position(), StandardCharsets.ISO_8859_1);
    int end = request.indexOf("\r\n\r\n");
    if (end < 0) {
      return;
    }
    connection.in.clear(); // the client waits for the answer before it sends another request
    String[] line = request.substring(0, request.indexOf("\r\n")).split(" ");
    requests.incrementAndGet();
    waiting++;
    mostWaiting = Math.max(mostWaiting, waiting);
    key.interestOps(0);
    due.add(new Due(System.nanoTime() + latencyNanos, connection, answer(connection.host, line.length > 1 ? line[1] : "")));
  }

  private void answerDue() {
    long now = System.nanoTime();
    while (!due.isEmpty() && due.peek().at <= now) {
      Due next = due.poll();
      waiting--;
      next.connection.out = next.answer;
      SelectionKey key = next.connection.channel.keyFor(selector);
      if (key != null && key.isValid()) {
        write(key, next.connection);
      }
    }
  }

  private void write(SelectionKey key, Connection connection) {
    try {
      connection.channel.write(connection.out);
    } catch (IOException e) {
      close(key);
      return;
    }
    key.interestOps(connection.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
  }

  private static void close(SelectionKey key) {
    key.cancel();
    try {
      key.channel().close();
    } catch (IOException e) {
      // closing: nothing left to do with it
    }
  }

  /** The answer to {@code path} on {@code host}: a page, or a 404. */
  private ByteBuffer answer(int host, String path) {
    Matcher m = PAGE.matcher(path);
    int page = m.matches() ? Integer.parseInt(m.group(1)) : -1;
    if (page < 0 || page >= pages) {
      return response("404 Not Found", "text/plain", "not found\n");
    }
    fetches.incrementAndGet(host * pages + page);
    StringBuilder html = new StringBuilder(2048)
        .append("<!doctype html><html><head><title>host ").append(host).append(" page ").append(page)
        .append("</title></head><body><h1>Page ").append(page).append("</h1><p>").append(FILLER).append("</p><ul>");
    for (int i = 1; i <= LINKS; i++) {
      int child = page * LINKS + i;
      if (child < pages) {
        html.append("<li><a href=\"/p/").append(child).append(".html\">page ").append(child).append("</a></li>");
      }
    }
    html.append("<li><a href=\"/p/0.html\">home</a></li></ul></body></html>\n");
    return response("200 OK", "text/html; charset=utf-8", html.toString());
  }

  private static ByteBuffer response(String status, String type, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\nContent-Length: " + bytes.length + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
    ByteBuffer buffer = ByteBuffer.allocate(headBytes.length + bytes.length);
    buffer.put(headBytes).put(bytes).flip();
    return buffer;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    closed = true;
    selector.wakeup();
    loop.join(5000);
    for (SelectionKey key : selector.keys()) {
      key.channel().close();
    }
    selector.close();
  }
}
