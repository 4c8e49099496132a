package dev.airlock.gateway.capture;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's directory on the host for what its runs need there: their fresh working
 * directories, the sandbox's generated {@code passwd} and {@code group}, and the named pipes of
 * unsandboxed runs. It lives in the work root ({@code airlock.sandbox.work-dir}), a directory only
 * the gateway's user may write or list, as {@code replica-<random>}, holding a lock on its {@code lock}
 * file for as long as the replica lives. At start-up, every other {@code replica-*} directory of
 * the gateway's user whose lock nobody holds is what an earlier life of a replica left when it
 * was killed, and is removed; a live replica's directory is never touched. Thread-safe.
 */
public final class WorkArea implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkArea.class);
    private static final String KEY = "airlock.sandbox.work-dir";
    private static final String PREFIX = "replica-";
    private static final String STAGING = ".staging-";
    /** Names a run that has a sandbox ({@link #holding}). */
    private static final String HELD = "held-";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    /**
     * Directories on the way to a run's: others may pass through but not list them (names are random), because
     * bubblewrap, running as the sandbox's host user, must reach what it mounts even by descriptor.
     */
    private static final Set<PosixFilePermission> PASS_THROUGH = PosixFilePermissions.fromString("rwx--x--x");
    /**
     * This JVM's own replica directories: their lock files are never opened a second time here,
     * because closing any descriptor of a file drops every POSIX lock the process holds on it.
     */
    private static final Set<Path> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Path directory;
    private final FileChannel lockFile;
    private final FileLock lock;

    private WorkArea(Path directory, FileChannel lockFile, FileLock lock) {
        this.directory = directory;
        this.lockFile = lockFile;
        this.lock = lock;
    }

    /** The work root when none is configured: one per host user in the JVM's temporary directory. */
    public static Path defaultRoot() {
        return Path.of(System.getProperty("java.io.tmpdir"), "airlock-work-" + currentUid());
    }

    /**
     * Makes this replica's directory in {@code root} (created if missing), after removing what dead
     * replicas left there.
     *
     * @throws InvalidConfigurationException if the root is not a directory of the gateway's user that
     *                                       only it may enter (a link, another owner, open to others)
     */
    public static WorkArea open(Path root) {
        Path absolute = root.toAbsolutePath().normalize();
        try {
            if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(absolute.getParent());
                try {
                    Files.createDirectory(absolute);
                    Files.setPosixFilePermissions(absolute, PASS_THROUGH);
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // Another replica made it at the same moment; checked below like any existing one.
                }
            }
            PosixFileAttributes attributes =
                    Files.readAttributes(absolute, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            int owner = (Integer) Files.getAttribute(absolute, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isDirectory() || owner != currentUid()) {
                throw new InvalidConfigurationException(
                        KEY,
                        absolute + " must be a directory (not a link) owned by the " + "gateway's user "
                                + currentUid());
            }
            if (!PASS_THROUGH.containsAll(attributes.permissions())) {
                throw new InvalidConfigurationException(
                        KEY,
                        absolute + " must be writable and readable by the gateway's user "
                                + "only (mode 0711 or 0700), not "
                                + PosixFilePermissions.toString(attributes.permissions()));
            }
            Files.setPosixFilePermissions(absolute, PASS_THROUGH);
            removeDeadReplicas(absolute);
            // Locked before it takes its name, so that no replica starting at the same moment sees it unlocked.
            String id = UUID.randomUUID().toString();
            Path staging = Files.createDirectory(
                    absolute.resolve(STAGING + id), PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            Files.setPosixFilePermissions(staging, PASS_THROUGH);
            FileChannel channel =
                    FileChannel.open(staging.resolve("lock"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new InvalidConfigurationException(KEY, "cannot lock this replica's directory " + staging);
            }
            // Known live before it takes its name: another start in this JVM that opened and closed its lock file to
            // test it would drop this JVM's lock (POSIX locks are the process's, released by any of its closes).
            Path named = absolute.resolve(PREFIX + id);
            LIVE.add(named);
            Path directory;
            try {
                directory = Files.move(staging, named, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LIVE.remove(named);
                channel.close();
                throw e;
            }
            return new WorkArea(directory, channel, lock);
        } catch (IOException e) {
            throw new InvalidConfigurationException(KEY, "cannot prepare " + absolute + ": " + e.getMessage());
        }
    }

    /** This replica's directory. */
    public Path directory() {
        return directory;
    }

    /** A new, empty directory of the gateway's user, which others may pass through but not list. */
    Path newDirectory(String name) throws IOException {
        Path dir = Files.createDirectory(directory.resolve(name), PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.setPosixFilePermissions(dir, PASS_THROUGH);
        return dir;
    }

    /**
     * Notes, before its sandbox is started, that run {@code runId} has a sandbox: one waiting on
     * its block pipe has no parent-death signal yet, so if this replica is killed meanwhile the
     * sandbox's init outlives it, waiting for ever (never starting its tool); the next start on the
     * host finds the note and kills every process of the run. {@link #letGo} removes the note.
     */
    void holding(UUID runId) throws IOException {
        Files.createFile(directory.resolve(HELD + runId), PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    }

    /** Removes the note of {@link #holding}: the run has ended, or its sandbox was taken down. */
    void letGo(UUID runId) {
        try {
            Files.deleteIfExists(directory.resolve(HELD + runId));
        } catch (IOException e) {
            log.warn("Could not remove the note of run {}'s waiting sandbox: {}", runId, e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            deleteTree(directory);
            lock.release();
            lockFile.close();
            LIVE.remove(directory);
        } catch (IOException e) {
            log.warn("Could not release {}: {}", directory, e.getMessage());
        }
    }

    private static void removeDeadReplicas(Path root) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, PREFIX + "*")) {
            for (Path entry : entries) {
                try {
                    if (LIVE.contains(entry)
                            || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                            || (Integer) Files.getAttribute(entry, "unix:uid", LinkOption.NOFOLLOW_LINKS)
                                    != currentUid()
                            || !unlocked(entry.resolve("lock"))) {
                        continue;
                    }
                    killWaitingSandboxes(entry);
                    deleteTree(entry);
                    removed++;
                } catch (IOException e) {
                    skipped(entry, e);
                }
            }
        }
        // A replica killed in the instant between making its directory and naming it leaves a staging directory.
        java.time.Instant old = java.time.Instant.now().minus(java.time.Duration.ofMinutes(10));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, STAGING + "*")) {
            for (Path entry : entries) {
                try {
                    if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                            && (Integer) Files.getAttribute(entry, "unix:uid", LinkOption.NOFOLLOW_LINKS)
                                    == currentUid()
                            && Files.getLastModifiedTime(entry, LinkOption.NOFOLLOW_LINKS)
                                    .toInstant()
                                    .isBefore(old)) {
                        deleteTree(entry);
                        removed++;
                    }
                } catch (IOException e) {
                    skipped(entry, e);
                }
            }
        }
        if (removed > 0) {
            log.info("Removed {} working area(s) that replicas killed earlier left in {}", removed, root);
        }
    }

    /**
     * A directory of the root that changed while it was looked at (a replica closing removes its own, a replica
     * starting names its staging directory, another start removes a dead one at the same moment): left for the next
     * start, never a reason for this one to fail.
     */
    private static void skipped(Path entry, IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            log.debug("Left {} as it was while replicas started or stopped beside this one: {}", entry, e.toString());
        } else {
            // Not a race: kept (its notes of waiting sandboxes with it) for the next start to try again.
            log.warn("Could not look at or remove {}; left for the next start: {}", entry, e.toString());
        }
    }

    /** Kills the sandboxes a killed replica left waiting to be let go ({@link #holding}), and waits for them to be gone. */
    private static void killWaitingSandboxes(Path replica) throws IOException {
        List<ProcessTree.Member> killed = new java.util.ArrayList<>();
        try (DirectoryStream<Path> notes = Files.newDirectoryStream(replica, HELD + "*")) {
            for (Path note : notes) {
                UUID runId;
                try {
                    runId = UUID.fromString(note.getFileName().toString().substring(HELD.length()));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                killed.addAll(ProcessTree.killMarked(ProcessSpec.RUN_ID_VARIABLE + "=" + runId));
            }
        }
        if (killed.isEmpty()) {
            return;
        }
        log.warn(
                "Killed {} process(es) of sandboxes that a replica killed earlier left waiting in {}",
                killed.size(),
                replica);
        try {
            if (!ProcessTree.awaitGone(killed, java.time.Duration.ofSeconds(5))) {
                log.warn("A process of a sandbox left waiting in {} was still there after 5 s", replica);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether nobody holds the lock of a replica's directory (its replica is gone), or it has none. */
    private static boolean unlocked(Path lockPath) {
        if (!Files.isRegularFile(lockPath, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        try (FileChannel channel = FileChannel.open(lockPath, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Removes {@code dir} and everything below it. Every step is taken relative to a directory
     * already open ({@link SecureDirectoryStream}), never by a path from the top, and never through a
     * link: a process that swaps a directory for a link while the tree is removed can make the
     * removal fail, never make it reach outside the tree. Directories a run made unreadable are
     * opened up on the way. A tree of any depth is removed with at most {@link #MAX_DEPTH} directories
     * open at once: what lies deeper is moved up into {@code dir} and removed in a further pass (each
     * pass opens {@code dir} again through its parent, never through a link).
     */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || dir.getParent() == null) {
                Files.delete(dir);
                return;
            }
            try (DirectoryStream<Path> parentStream = Files.newDirectoryStream(dir.getParent())) {
                if (!(parentStream instanceof SecureDirectoryStream<Path> parent)) {
                    throw new IOException("this file system offers no directory-relative operations");
                }
                Path name = dir.getFileName();
                parent.getFileAttributeView(name, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                        .setPermissions(OWNER_ONLY);
                // Each pass goes at most MAX_DEPTH levels down; what lies deeper comes up for the next.
                boolean movedUp = true;
                for (int pass = 0; movedUp; pass++) {
                    if (pass == MAX_PASSES) {
                        throw new IOException(
                                "still deeper after " + MAX_PASSES + " passes of " + MAX_DEPTH + " levels");
                    }
                    try (SecureDirectoryStream<Path> top = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                        movedUp = empty(top, top, 0);
                    }
                }
                parent.deleteDirectory(name);
            }
        } catch (IOException | UncheckedIOException | java.nio.file.DirectoryIteratorException e) {
            log.warn("Could not remove {}: {}", dir, e.getMessage());
        }
    }

    /** How many passes a removal makes at most (a tree that keeps growing while it is removed stops it). */
    private static final int MAX_PASSES = 100_000;

    /** How many directories below the top one removal holds open at most. */
    private static final int MAX_DEPTH = 64;

    /** The name prefix of a directory moved up to the top of a tree being removed. */
    private static final String DEEPER = ".deeper-";

    /**
     * Empties {@code dir}, {@code depth} levels below {@code top}; a directory found at
     * {@link #MAX_DEPTH} is moved into {@code top} instead of opened. Whether one was.
     */
    private static boolean empty(SecureDirectoryStream<Path> top, SecureDirectoryStream<Path> dir, int depth)
            throws IOException {
        boolean movedUp = false;
        for (Path entry : dir) {
            Path name = entry.getFileName();
            BasicFileAttributes attributes = dir.getFileAttributeView(
                            name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
            if (!attributes.isDirectory()) {
                dir.deleteFile(name);
                continue;
            }
            dir.getFileAttributeView(name, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setPermissions(OWNER_ONLY);
            if (depth == MAX_DEPTH) {
                dir.move(name, top, Path.of(DEEPER + UUID.randomUUID()));
                movedUp = true;
                continue;
            }
            try (SecureDirectoryStream<Path> child = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                movedUp |= empty(top, child, depth + 1);
            }
            dir.deleteDirectory(name);
        }
        return movedUp;
    }

    static int currentUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            throw new InvalidConfigurationException(
                    "airlock.sandbox.mode", "the gateway needs Linux with /proc (" + e.getMessage() + ")");
        }
    }
}
