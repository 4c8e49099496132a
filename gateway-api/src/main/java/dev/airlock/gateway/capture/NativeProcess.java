package dev.airlock.gateway.capture;

import java.io.Closeable;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A child process started with {@code posix_spawn}, so that it can be handed descriptors beyond
 * standard input, output and error (the JDK closes every other descriptor in its children). Its
 * standard input is {@code /dev/null}; standard output, standard error and each
 * {@linkplain #start extra output} are pipes read here; every other descriptor is closed. A
 * (pooled) platform thread reaps it. Thread-safe.
 */
final class NativeProcess implements Child {

    private final int pid;
    private final InputStream stdout;
    private final InputStream stderr;
    private final List<InputStream> outputs;
    private final List<OutputStream> inputs;
    private final @Nullable OutputStream stdin;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();

    private NativeProcess(
            int pid,
            InputStream stdout,
            InputStream stderr,
            List<InputStream> outputs,
            List<OutputStream> inputs,
            @Nullable OutputStream stdin) {
        this.pid = pid;
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.outputs = outputs;
        this.inputs = inputs;
    }

    /**
     * Starts {@code argv} (an absolute program first) with exactly {@code environment}. The child
     * gets {@code inherited} as descriptors 3, 4, …; then, numbered after them, the write ends of
     * {@code outputs} pipes whose read ends are {@link #output(int)}; then {@code inputs} pipes
     * whose write ends are {@link #input(int)}. {@code inherited} stay open here for the caller to
     * close.
     *
     * <p>The child's end of an input pipe is opened for reading <em>and writing</em>, so that the
     * child itself always holds a writer: a read there waits for what is written at {@link
     * #input(int)} and never sees the end of the stream, not even when every writer here is gone
     * (this process died). bubblewrap's {@code --block-fd} starts the command on whatever its read
     * returns, the end of the stream included; with this, only a byte written here starts it.
     *
     * <p>With {@code stdinPipe}, standard input is a pipe whose write end is {@link #stdin()}
     * instead of {@code /dev/null} (a long-lived server that is spoken to).
     */
    static NativeProcess start(
            List<String> argv,
            Map<String, String> environment,
            List<Integer> inherited,
            int outputs,
            int inputs,
            boolean stdinPipe)
            throws IOException {
        List<int[]> opened = new ArrayList<>();
        List<Integer> readWrite = new ArrayList<>();
        List<Closeable> streams = new ArrayList<>();
        try {
            for (int i = 0; i < 2 + outputs + inputs; i++) {
                int[] pipe = LibC.pipe();
                opened.add(pipe);
                // A stream of our own on our end, opened while we hold the other end too (opening a pipe with no
                // writer, or no reader, would wait for one); the original descriptors are closed below.
                streams.add(
                        i < 2 + outputs
                                ? new FileInputStream("/proc/self/fd/" + pipe[0])
                                : new FileOutputStream("/proc/self/fd/" + pipe[1]));
            }
            OutputStream stdin = null;
            if (stdinPipe) {
                int[] pipe = LibC.pipe();
                opened.add(pipe);
                stdin = new FileOutputStream("/proc/self/fd/" + pipe[1]);
                streams.add(stdin);
            }
            int[] table = new int[3 + inherited.size() + outputs + inputs];
            table[0] = stdinPipe ? opened.get(opened.size() - 1)[0] : -1;
            table[1] = opened.get(0)[1];
            table[2] = opened.get(1)[1];
            for (int i = 0; i < inherited.size(); i++) {
                table[3 + i] = inherited.get(i);
            }
            for (int i = 0; i < outputs; i++) {
                table[3 + inherited.size() + i] = opened.get(2 + i)[1];
            }
            for (int i = 0; i < inputs; i++) {
                int child = LibC.open("/proc/self/fd/" + opened.get(2 + outputs + i)[0], LibC.O_RDWR | LibC.O_CLOEXEC);
                readWrite.add(child);
                table[3 + inherited.size() + outputs + i] = child;
            }
            String[] env = environment.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new);
            int pid = Spawner.call(() -> LibC.spawn(argv.get(0), argv.toArray(String[]::new), env, table));
            NativeProcess process = new NativeProcess(
                    pid,
                    (InputStream) streams.get(0),
                    (InputStream) streams.get(1),
                    streams.subList(2, 2 + outputs).stream()
                            .map(InputStream.class::cast)
                            .toList(),
                    streams.subList(2 + outputs, 2 + outputs + inputs).stream()
                            .map(OutputStream.class::cast)
                            .toList(),
                    stdin);
            streams.clear();
            try {
                process.reap();
            } catch (RuntimeException | Error e) {
                // Nobody would wait for it: it must not run unsupervised.
                LibC.kill(pid, LibC.SIGKILL);
                throw e;
            }
            return process;
        } catch (LibC.Failure e) {
            throw new IOException(e.getMessage(), e);
        } finally {
            for (int[] pipe : opened) {
                LibC.close(pipe[0]);
                LibC.close(pipe[1]);
            }
            readWrite.forEach(LibC::close);
            for (Closeable stream : streams) {
                stream.close();
            }
        }
    }

    private void reap() {
        BlockingThreads.start("airlock-reaper-" + pid, () -> {
            try {
                // Seen ended but not reaped yet, so the pid cannot be reused while the process is still taken for
                // alive.
                int code = LibC.awaitExit(pid);
                exit.complete(code);
                LibC.reap(pid);
            } catch (LibC.Failure | RuntimeException e) {
                exit.completeExceptionally(e);
            }
        });
    }

    @Override
    public long pid() {
        return pid;
    }

    InputStream stdout() {
        return stdout;
    }

    InputStream stderr() {
        return stderr;
    }

    /** Our end of its standard input, when it was started with one. */
    @Nullable
    OutputStream stdin() {
        return stdin;
    }

    /** Our end of the output pipe {@code index}. */
    InputStream output(int index) {
        return outputs.get(index);
    }

    /** Our end of the input pipe {@code index}. */
    OutputStream input(int index) {
        return inputs.get(index);
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public boolean waitFor(long millis) throws InterruptedException {
        try {
            exit.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** The code it exited with, or 128 plus the signal that killed it, as the JDK reports it. */
    @Override
    public int exitValue() {
        if (!exit.isDone() || exit.isCompletedExceptionally()) {
            throw new IllegalStateException("the exit status of process " + pid + " is not known");
        }
        return exit.join();
    }

    /** Closes the streams read from it. */
    void closeStreams() {
        List<Closeable> all = new ArrayList<>(outputs);
        all.addAll(inputs);
        if (stdin != null) {
            all.add(stdin);
        }
        for (Closeable stream : all) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // Nothing more is read from it.
            }
        }
    }
}
