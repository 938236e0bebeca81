package dev.sieve.frontier.durable;

import java.util.function.Supplier;

/**
 * How the service makes a change durable before it answers: {@link #apply} runs the change, whose
 * result is the {@link Change} to journal (null when nothing changed), and runs the answer once
 * that change, and every change applied before it, is durable. Answers run in the order their
 * changes were applied.
 */
public interface Durability {
  /** In memory only: the answer runs at once. */
  Durability NONE = new Durability() {
    @Override
    public void apply(Supplier<Change> change, Runnable answer) {
      change.get();
      answer.run();
    }

    @Override
    public boolean journaled() {
      return false;
    }
  };

  /** Whether changes are journaled: if not, a change need not build its {@link Change}. */
  default boolean journaled() {
    return true;
  }

  /**
   * Applies {@code change}, then runs {@code answer} once it is durable.
   *
   * @throws RuntimeException what {@code change} threw (nothing was journaled), or an {@link
   *     IllegalStateException} when the journal can no longer be written
   */
  void apply(Supplier<Change> change, Runnable answer);
}
