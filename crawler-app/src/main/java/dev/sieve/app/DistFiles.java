package dev.sieve.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * Build step run at {@code package} (see crawler-app/pom.xml): writes what the distribution
 * carries beside the jar, from the command line's picocli model, so none of it can drift from
 * {@code --help}: a man page per command ({@code man/man1/sieve-crawl.1}) and the completion
 * scripts ({@code completion/sieve.bash} from picocli's {@link AutoComplete}, and
 * {@code completion/sieve.zsh}, which loads the bash one through zsh's bashcompinit).
 */
public final class DistFiles {
  private DistFiles() {}

  /** Argument: the directory to write {@code man/} and {@code completion/} into. */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    CommandLine root = Main.commandLine();
    Path man = Files.createDirectories(out.resolve("man/man1"));
    for (CommandLine command : commands(root)) {
      ManPage page = new ManPage(command.getCommandSpec(), BuildInfo.version());
      Files.writeString(man.resolve(page.fileName()), page.render());
    }
    Path completion = Files.createDirectories(out.resolve("completion"));
    Files.writeString(completion.resolve("sieve.bash"), AutoComplete.bash("sieve", root));
    Files.writeString(completion.resolve("sieve.zsh"), String.join("\n",
        "# zsh completion for sieve: source this file from ~/.zshrc.",
        "# It loads the bash completion beside it through zsh's bashcompinit.",
        "autoload -U +X compinit && compinit",
        "autoload -U +X bashcompinit && bashcompinit",
        "source \"${0:A:h}/sieve.bash\"",
        ""));
  }

  /** The command and all its subcommands, depth first, without picocli's help command. */
  static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> all = new ArrayList<>();
    all.add(root);
    root.getSubcommands().forEach((name, sub) -> {
      if (!"help".equals(name)) {
        all.addAll(commands(sub));
      }
    });
    return all;
  }
}
