package dev.sieve.app;

/** Entry point of crawler.jar. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("Usage: java -jar crawler.jar <crawl|size> [options]");
  }
}
