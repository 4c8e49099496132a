package dev.airlock.gateway.capture;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A run's stdout and stderr as named pipes, for processes without a sandbox. The JDK's own pipe
 * to a child is closed by the JDK when the child exits, after it takes what is buffered; a
 * leftover process that still holds the pipe then looks like the end of the stream. Read through
 * a named pipe of its own, the supervisor sees the end only when every writer has closed it, so
 * {@code eof} stays a fact. (In a sandbox every writer is dead when the child's bubblewrap exits,
 * so the JDK's pipe tells the truth there.)
 *
 * @param stdout the named pipe the child writes its standard output to
 * @param stderr the named pipe the child writes its standard error to
 */
record NamedPipes(Path stdout, Path stderr) implements AutoCloseable {

    /** Makes the two named pipes of a run in {@code dir}, a directory only the gateway's user can enter. */
    static NamedPipes create(Path dir, UUID runId) throws IOException {
        NamedPipes pipes = new NamedPipes(dir.resolve(runId + ".stdout"), dir.resolve(runId + ".stderr"));
        Process mkfifo = Spawner.start(new ProcessBuilder(
                        "mkfifo",
                        "-m",
                        "600",
                        pipes.stdout().toString(),
                        pipes.stderr().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        try {
            if (!mkfifo.waitFor(10, TimeUnit.SECONDS) || mkfifo.exitValue() != 0) {
                mkfifo.destroyForcibly();
                throw new IOException("mkfifo could not make the output pipes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the output pipes", e);
        }
        return pipes;
    }

    /** The source a capture reads stdout from. */
    StreamCapture.Source stdoutSource() {
        return () -> new FileInputStream(stdout.toFile());
    }

    /** The source a capture reads stderr from. */
    StreamCapture.Source stderrSource() {
        return () -> new FileInputStream(stderr.toFile());
    }

    /**
     * Lets captures still waiting for a writer go, when the process never started: opening a named
     * pipe for reading and writing never waits, and closing it again ends the stream.
     */
    void release() {
        for (Path pipe : new Path[] {stdout, stderr}) {
            try {
                FileChannel.open(pipe, StandardOpenOption.READ, StandardOpenOption.WRITE)
                        .close();
            } catch (IOException ignored) {
                // Gone already: nobody can be waiting on it.
            }
        }
    }

    @Override
    public void close() {
        for (Path pipe : new Path[] {stdout, stderr}) {
            try {
                Files.deleteIfExists(pipe);
            } catch (IOException ignored) {
                // Left in the gateway's private directory; the name is never reused.
            }
        }
    }
}
