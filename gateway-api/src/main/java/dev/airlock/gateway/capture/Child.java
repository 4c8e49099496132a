package dev.airlock.gateway.capture;

/** A process the supervisor started, whichever way it was started. */
interface Child {

    /** Its pid. */
    long pid();

    /** Whether it has not ended yet. */
    boolean isAlive();

    /** Waits up to {@code millis} for it to end; true if it did. */
    boolean waitFor(long millis) throws InterruptedException;

    /** Its exit code once it has ended: the code it exited with, or 128 plus the signal that killed it. */
    int exitValue();

    /** A process started through the JDK. */
    static Child of(Process process) {
        return new Child() {
            @Override
            public long pid() {
                return process.pid();
            }

            @Override
            public boolean isAlive() {
                return process.isAlive();
            }

            @Override
            public boolean waitFor(long millis) throws InterruptedException {
                return process.waitFor(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
            }

            @Override
            public int exitValue() {
                return process.exitValue();
            }
        };
    }
}
