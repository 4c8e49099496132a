package dev.airlock.gateway.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What bubblewrap reported on its {@code --json-status-fd}: the host pid of the sandbox's init,
 * and an exit code only if the sandbox was set up and its command started. A sandbox whose setup
 * failed (a mount source swapped for something else, the kernel's limit on namespaces) reports no
 * exit code, which tells its failure apart from a tool that exited with bubblewrap's own code 1.
 * Only bubblewrap writes here; the tool never holds the descriptor.
 *
 * @param childPid       the sandbox's init as the host sees it, or -1 if not reported
 * @param commandStarted whether the command was started in a sandbox that was set up
 */
record BubblewrapStatus(long childPid, boolean commandStarted) {

    private static final int LIMIT = 64 * 1024;
    private static final Pattern CHILD_PID = Pattern.compile("\"child-pid\"\\s*:\\s*(\\d{1,10})");
    private static final Pattern EXIT_CODE = Pattern.compile("\"exit-code\"\\s*:\\s*-?\\d{1,10}");

    /** Reads the whole report (to the end of the pipe, so only once bubblewrap has ended). */
    static BubblewrapStatus read(InputStream in) throws IOException {
        return parse(new String(in.readNBytes(LIMIT), StandardCharsets.US_ASCII));
    }

    /**
     * Reads the report's first line, which bubblewrap writes as soon as the sandbox's init exists:
     * its host pid, or -1 if bubblewrap ended before (the rest is read later with {@link #read}).
     */
    static long readChildPid(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while (line.length() < LIMIT && (b = in.read()) >= 0 && b != '\n') {
            line.append((char) b);
        }
        return parse(line.toString()).childPid();
    }

    static BubblewrapStatus parse(String report) {
        Matcher pid = CHILD_PID.matcher(report);
        return new BubblewrapStatus(
                pid.find() ? Long.parseLong(pid.group(1)) : -1,
                EXIT_CODE.matcher(report).find());
    }
}
