package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StartupArchiveTest {
  @Test
  void archivable_dropsOnlyLambdasNamingPicocli() {
    List<String> classList = List.of(
        "java/lang/Object id: 0",
        "picocli/CommandLine",
        "dev/sieve/app/Main",
        "@lambda-proxy dev/sieve/app/OptionConverters$ScopeConverter convert (Ljava/lang/String;)Lpicocli/CommandLine$ITypeConverter;",
        "@lambda-proxy dev/sieve/crawl/Crawler run ()Ljava/lang/Runnable;",
        "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder invokeStatic L_L");

    assertThat(StartupArchive.archivable(classList)).containsExactly(
        "java/lang/Object id: 0",
        "picocli/CommandLine",
        "dev/sieve/app/Main",
        "@lambda-proxy dev/sieve/crawl/Crawler run ()Ljava/lang/Runnable;",
        "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder invokeStatic L_L");
  }
}
