package dev.sieve.frontier.state;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The settings a saved crawl was made with ({@code DIR/settings.properties}): a resume with other
 * values is refused naming each, the saved and the new.
 */
final class SavedSettings {
  static final String FILE = "settings.properties";

  private SavedSettings() {}

  static Properties readSettings(Path dir) {
    Path file = dir.resolve(FILE);
    Properties saved = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      saved.load(in);
    } catch (IOException | IllegalArgumentException e) {
      throw new CrawlStateException("state directory " + dir + " is not a complete Sieve crawl state: cannot read "
          + file + ": " + (e instanceof IOException io ? CrawlStateException.cause(io) : e.getMessage())
          + "; --fresh starts over, deleting the crawl's files", e);
    }
    return saved;
  }
  static void checkSettings(Path dir, Map<String, String> settings) {
    Properties saved = readSettings(dir);
    List<String> changed = new ArrayList<>();
    for (Map.Entry<String, String> setting : settings.entrySet()) {
      String was = saved.getProperty(setting.getKey());
      if (was != null && !was.equals(setting.getValue())) {
        changed.add(setting.getKey() + " " + setting.getValue() + " (the saved crawl has " + was + ")");
      }
    }
    if (!changed.isEmpty()) {
      throw new CrawlStateException("cannot resume the crawl in " + dir + " with changed settings: "
          + String.join(", ", changed) + ". Use the saved values, or --fresh to start over.");
    }
  }
  static void writeSettings(Path dir, Map<String, String> settings) throws IOException {
    Properties properties = new Properties();
    properties.putAll(settings);
    Path tmp = dir.resolve(FILE + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      properties.store(out, "Settings of this crawl that must not change when it resumes");
    }
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }}
