package me.loutres.juneau.agent.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A scheduler that only records delayed tasks; the test runs them when it wants (no sleeping in unit tests). */
public final class ManualTimer extends ScheduledThreadPoolExecutor {
    public record Task(Duration delay, Runnable task) {
    }

    private final List<Task> tasks = new ArrayList<>();

    public ManualTimer() {
        super(1);
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        tasks.add(new Task(Duration.ofNanos(unit.toNanos(delay)), command));
        return null;
    }

    public synchronized List<Duration> delays() {
        return tasks.stream().map(Task::delay).toList();
    }

    /** Runs and forgets every recorded task, in order. */
    public void runAll() {
        List<Task> due;
        synchronized (this) {
            due = List.copyOf(tasks);
            tasks.clear();
        }
        due.forEach(t -> t.task().run());
    }
}
