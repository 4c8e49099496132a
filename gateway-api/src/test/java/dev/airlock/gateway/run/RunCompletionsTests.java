package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.persistence.envelope.Envelope;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Waiters of one run are woken each on their own: one giving up never unhooks another; an announced end
 * or a change in hearing announcements tells waiters to look again.
 */
class RunCompletionsTests {

    private final RunCompletions completions = new RunCompletions(java.time.Duration.ofSeconds(5));
    private final UUID run = UUID.randomUUID();

    @Test
    void aWaiterThatGivesUpLeavesTheOthersWatching() {
        CompletableFuture<Optional<Envelope>> submitter = completions.watch(run);
        // Another request for the same run id (one that may not see it, or whose wait ran out) gives up.
        CompletableFuture<Optional<Envelope>> other = completions.watch(run);
        completions.unwatch(run, other);
        assertThat(completions.watching(run)).isEqualTo(1);

        completions.completed(run, null);
        assertThat(submitter).isDone();
        assertThat(other).isNotDone();
        assertThat(completions.watching(run)).isZero();
    }

    @Test
    void everyWaiterOfTheRunIsWokenAndNoOtherRunsWaiter() {
        CompletableFuture<Optional<Envelope>> first = completions.watch(run);
        CompletableFuture<Optional<Envelope>> second = completions.watch(run);
        UUID otherRun = UUID.randomUUID();
        CompletableFuture<Optional<Envelope>> elsewhere = completions.watch(otherRun);

        completions.completed(run);
        assertThat(first).isCompletedWithValue(Optional.empty());
        assertThat(second).isCompletedWithValue(Optional.empty());
        assertThat(elsewhere).isNotDone();
        assertThat(completions.watching(otherRun)).isEqualTo(1);
    }

    @Test
    void anAnnouncedEndTellsTheRunsWaitersToLookAgainAndNoOtherRunsWaiter() {
        CompletableFuture<Optional<Envelope>> waiter = completions.watch(run);
        CompletableFuture<Optional<Envelope>> elsewhere = completions.watch(UUID.randomUUID());

        completions.lookAgain(run);

        assertThat(waiter).isCompletedExceptionally();
        assertThatThrownBy(waiter::join).hasCauseInstanceOf(RunCompletions.LookAgain.class);
        assertThat(elsewhere).isNotDone();
        assertThat(completions.watching(run)).isZero();
    }

    @Test
    void startingOrStoppingToHearEndsTellsEveryWaiterToLookAgainAndSetsHowOftenTheyRead() {
        assertThat(completions.hearsEnds()).isFalse();
        assertThat(completions.recheckMillis()).isEqualTo(RunCompletions.POLL_MILLIS);
        CompletableFuture<Optional<Envelope>> first = completions.watch(run);
        CompletableFuture<Optional<Envelope>> second = completions.watch(UUID.randomUUID());

        completions.hearingEnds(true);

        assertThat(completions.recheckMillis()).isEqualTo(5000);
        assertThat(first).isCompletedExceptionally();
        assertThat(second).isCompletedExceptionally();
        CompletableFuture<Optional<Envelope>> third = completions.watch(run);

        completions.hearingEnds(false);

        assertThat(completions.recheckMillis()).isEqualTo(RunCompletions.POLL_MILLIS);
        assertThat(third).isCompletedExceptionally();
    }
}
