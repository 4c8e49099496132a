package dev.airlock.gateway.mcpupstream;

import dev.airlock.gateway.tool.Tool;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.persistence.mcp.McpToolDefinitions;
import dev.airlock.persistence.run.Termination;
import dev.airlock.persistence.scope.Scopes;
import dev.airlock.sanitizer.SecretRedactor;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * One upstream MCP server of one tenant on this replica: its connection, kept up (a server that
 * dies is connected again with backoff, its tools unavailable meanwhile), its listing read again
 * when it says its tools changed, every {@code refresh-interval} and before every call, and what of
 * that listing is offered: the tools its settings include, each only under a definition that is
 * pinned (approved). A call is made only if the tool's definition is still the one the run was
 * requested under.
 */
final class ServerHandle {

    private static final Logger log = LoggerFactory.getLogger(ServerHandle.class);
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);
    /** The least time between two listings a server's notifications ask for. */
    private static final Duration MIN_RELISTING = Duration.ofSeconds(2);
    /** How long a stop waits for the watcher to end (it may be closing a session that ended: two 5 s waits at most). */
    private static final Duration STOP_WAIT = Duration.ofSeconds(15);

    /** How many tools the last listing held without recording them; logged when it changes. */
    private int lastUnrecorded;

    /** New or changed tools of one listing logged one by one; the rest in one line. */
    private static final int LOGGED_PER_LISTING = 10;

    /** Makes a new connection to the server (a started process, or an HTTP client). */
    @FunctionalInterface
    interface Connector {
        McpChannel connect(Consumer<String> notifications) throws McpFailure;
    }

    private final ServerSettings server;
    /** {@link ServerSettings#sha256} of its settings, which do not change while the handle lives. */
    private final String settingsSha256;

    private final Connector connector;
    private final ToolCatalog catalog;
    private final McpToolDefinitions definitions;
    private final Scopes scopes;
    private final Clock clock;
    private final String clientVersion;
    private final Semaphore wake = new Semaphore(0);
    private volatile @Nullable McpSession session;
    private volatile @Nullable String down = "not started";
    private volatile Map<String, UpstreamTools.Listed> listing = Map.of();
    private volatile Map<String, Tool> offered = Map.of();
    private volatile List<String> held = List.of();
    private volatile boolean running;
    private volatile long lastListing = System.nanoTime();
    private volatile @Nullable Thread watcher;
    /** Held while {@link #session} is set or taken: a session opened while the server is stopped is closed, not kept. */
    private final Object sessionLock = new Object();
    /** Held while the listing is read and applied: one listing at a time, and a call waits at most its own timeout for it. */
    private final java.util.concurrent.locks.ReentrantLock listingLock = new java.util.concurrent.locks.ReentrantLock();
    /**
     * What each approved definition of the last listing came to, by its digest: the tool offered, or
     * why it is not (so a definition is compiled, and a refusal logged, once, not at every listing).
     */
    private Map<String, Object> outcomes = Map.of();

    private int lastUnnamed;
    /**
     * The tools the last listing named twice, differently, or with a definition too long to record (logged when they
     * change).
     */
    private java.util.Set<String> lastUnusable = java.util.Set.of();

    ServerHandle(
            ServerSettings server,
            Connector connector,
            ToolCatalog catalog,
            McpToolDefinitions definitions,
            Scopes scopes,
            Clock clock,
            String clientVersion) {
        this.server = server;
        this.settingsSha256 = ServerSettings.sha256(server.settings());
        this.connector = connector;
        this.catalog = catalog;
        this.definitions = definitions;
        this.scopes = scopes;
        this.clock = clock;
        this.clientVersion = clientVersion;
    }

    /** The server's settings. */
    ServerSettings server() {
        return server;
    }

    /** The digest of what decides where its calls go and what they carry, as runs record it. */
    String settingsSha256() {
        return settingsSha256;
    }

    /** What redacts the server's secret values from what it answers. */
    SecretRedactor redactor() {
        return server.redactor().get();
    }

    /** Text of the server's (or about it) as a log line or a reason may show it: sanitized, its secret values redacted, bounded. */
    private String shown(@Nullable String text) {
        return McpChannel.loggable(String.valueOf(text), redactor());
    }

    /** Why the server is unavailable, or null while it is up. */
    @Nullable
    String down() {
        return down;
    }

    /** The tools of its listing held back: excluded by no rule but waiting for (or refused) approval. */
    List<String> held() {
        return held;
    }

    /** The names (as agents see them) of the tools offered now. */
    List<String> offered() {
        return List.copyOf(offered.keySet());
    }

    /**
     * Connects, initializes and reads the first listing, then keeps the server up in the
     * background. A server that cannot be started now is down (its tools unavailable, its health
     * DOWN with the reason) and is tried again with backoff.
     */
    void start() {
        running = true;
        try {
            connect();
        } catch (McpFailure | InvalidConfigurationException e) {
            down = shown(e.getMessage());
            log.warn(
                    "MCP server {} could not be started and initialized: {}; its tools are unavailable until it is",
                    server.label(),
                    down);
        } catch (RuntimeException e) {
            // What connect() does not turn into a failure (a process that would not stop while being closed): still
            // down with a reason, and still watched and tried again, never a server left without its watcher.
            down = shown("it could not be started: " + e.getClass().getSimpleName());
            log.error("MCP server {} could not be started and initialized", server.label(), e);
        }
        Thread thread = Thread.ofVirtual().name("mcp-watch-" + server.label()).start(this::watch);
        watcher = thread;
    }

    /** Stops the background work and the server. */
    void stop() {
        McpSession current;
        synchronized (sessionLock) {
            running = false;
            current = session;
            session = null;
        }
        wake.release();
        Thread thread = watcher;
        if (thread != null) {
            thread.interrupt();
        }
        if (current != null) {
            current.close();
        }
        if (thread != null) {
            // A session the watcher took out is closed by it: waited for (bounded), so that the server is stopped
            // when this returns.
            try {
                thread.join(STOP_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        catalog.offer(server.tenant(), server.name(), List.of());
    }

    private synchronized void connect() throws McpFailure {
        if (!running) {
            throw new McpFailure(Termination.SERVER_DOWN, "the server was stopped");
        }
        McpChannel channel;
        try {
            channel = connector.connect(this::notified);
        } catch (InvalidConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unforeseen(e);
        }
        McpSession opened;
        try {
            opened = McpSession.initialize(channel, server.settings().startTimeout(), clientVersion);
        } catch (McpFailure e) {
            channel.close();
            throw e;
        } catch (RuntimeException e) {
            channel.close();
            throw unforeseen(e);
        }
        boolean kept;
        synchronized (sessionLock) {
            kept = running;
            if (kept) {
                session = opened;
            }
        }
        if (!kept) {
            // Stopped while this connected: what it opened is closed, never left running behind a stopped server.
            opened.close();
            throw new McpFailure(Termination.SERVER_DOWN, "the server was stopped");
        }
        try {
            refresh(opened);
        } catch (McpFailure e) {
            closeIfCurrent(opened);
            throw e;
        } catch (RuntimeException e) {
            // Whatever else went wrong (the listing, a definition that could not be recorded), the session is not
            // left open behind a server marked down: it is closed, and tried again with backoff.
            closeIfCurrent(opened);
            throw e instanceof InvalidConfigurationException
                    ? new McpFailure(Termination.UPSTREAM_ERROR, String.valueOf(e.getMessage()))
                    : unforeseen(e);
        }
        down = null;
        log.info(
                "MCP server {} is up (version {}): {} tool(s) offered, {} held",
                server.label(),
                shown(String.valueOf(opened.serverVersion())),
                offered.size(),
                held.size());
    }

    /**
     * Closes {@code ended} if it is still the server's session, taking it out first: whoever takes a session out
     * (this, or {@link #stop()}) is the one that closes it, once, outside {@link #sessionLock} (stopping its process
     * may take seconds; an interrupt does not cut it short, see {@link dev.airlock.gateway.capture.ServerProcess#stop()}).
     */
    private void closeIfCurrent(McpSession ended) {
        boolean taken;
        synchronized (sessionLock) {
            taken = session == ended;
            if (taken) {
                session = null;
            }
        }
        if (taken) {
            ended.close();
        }
    }

    /** An exception nothing foresaw while connecting, as the failure the server is down for (and retried after). */
    private McpFailure unforeseen(RuntimeException e) {
        log.error("MCP server {}: connecting to it failed unexpectedly", server.label(), e);
        // The class only: the exception's own text (a statement's, say) is for the log, not for health details.
        return new McpFailure(
                Termination.UPSTREAM_ERROR,
                "connecting failed unexpectedly (" + e.getClass().getSimpleName() + ")");
    }

    private void notified(String method) {
        if (method.equals("notifications/tools/list_changed")) {
            wake.release();
        }
    }

    /** Keeps the server up and its listing current until stopped. */
    private void watch() {
        Duration backoff = FIRST_BACKOFF;
        boolean listChanged = false;
        long nextRefresh =
                System.nanoTime() + server.settings().refreshInterval().toNanos();
        while (running) {
            try {
                boolean woken = wake.tryAcquire(1, TimeUnit.SECONDS);
                wake.drainPermits();
                if (!running) {
                    return;
                }
                McpSession current = session;
                if (current == null || !current.isOpen()) {
                    markDown(current == null ? down : current.closedReason());
                    if (current != null) {
                        // The session that ended is closed (its process reaped, its working directory removed)
                        // before another is opened.
                        closeIfCurrent(current);
                    }
                    if (!running) {
                        return;
                    }
                    try {
                        connect();
                        backoff = FIRST_BACKOFF;
                    } catch (McpFailure | RuntimeException e) {
                        down = shown(
                                e instanceof McpFailure || e instanceof InvalidConfigurationException
                                        ? e.getMessage()
                                        : "it could not be connected: "
                                                + e.getClass().getSimpleName());
                        log.warn(
                                "MCP server {} could not be connected again: {}; next try in {} s",
                                server.label(),
                                down,
                                backoff.toSeconds());
                        Thread.sleep(backoff.toMillis());
                        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                                ? MAX_BACKOFF
                                : backoff.multipliedBy(2);
                    }
                    continue;
                }
                listChanged |= woken;
                boolean due = System.nanoTime() - nextRefresh >= 0;
                // A server that says its tools changed is listed again, but at most every MIN_RELISTING.
                if (due || listChanged && System.nanoTime() - lastListing >= MIN_RELISTING.toNanos()) {
                    listChanged = false;
                    nextRefresh = System.nanoTime()
                            + server.settings().refreshInterval().toNanos();
                    refresh(current);
                }
            } catch (InterruptedException e) {
                if (!running) {
                    return;
                }
            } catch (McpFailure e) {
                log.warn(
                        "MCP server {}: its tool listing could not be read: {}", server.label(), shown(e.getMessage()));
            } catch (RuntimeException e) {
                log.error("MCP server {}: keeping it up failed", server.label(), e);
            }
        }
    }

    private void markDown(@Nullable String why) {
        if (!offered.isEmpty() || down == null) {
            log.warn("MCP server {} is down ({}); its tools are unavailable", server.label(), shown(why));
        }
        down = why == null ? "the server is not running" : shown(why);
        offered = Map.of();
        catalog.offer(server.tenant(), server.name(), List.of());
    }

    /**
     * Reads the server's listing and offers what it may: each included tool under an approved
     * definition. A definition seen for the first time is recorded: approved in the server's
     * first listing ever, held otherwise.
     */
    private void refresh(McpSession current) throws McpFailure {
        listingLock.lock();
        try {
            refresh(current, Duration.ofDays(1), cancel -> {});
        } finally {
            listingLock.unlock();
        }
    }

    /** {@link #refresh(McpSession)} within {@code limit}, with the listing's request cancellable; under {@link #listingLock}. */
    private void refresh(McpSession current, Duration limit, Consumer<Runnable> onCancel) throws McpFailure {
        lastListing = System.nanoTime();
        List<JsonNode> tools = current.listTools(limit, onCancel);
        Map<String, UpstreamTools.Listed> listed = new LinkedHashMap<>();
        int unnamed = 0;
        Map<String, UpstreamTools.Listed> named = new java.util.HashMap<>();
        java.util.Set<String> unusable = new java.util.HashSet<>();
        for (JsonNode tool : tools) {
            UpstreamTools.Listed one = UpstreamTools.listed(tool);
            if (one == null) {
                unnamed++;
                continue;
            }
            if (!UpstreamTools.included(server.settings().tools(), one.name())) {
                continue;
            }
            UpstreamTools.Listed before = named.putIfAbsent(one.name(), one);
            if (before != null) {
                if (!before.sha256().equals(one.sha256())) {
                    // Listed twice, differently: which the server runs is its choice, so neither is recorded or
                    // offered.
                    unusable.add(one.name());
                }
            } else if (one.canonical().length() > UpstreamTools.MAX_DEFINITION_CHARS) {
                // Neither recorded (each held definition is a row and a console page's worth of text) nor
                // offered: a server may not fill the reviewers' page with a few definitions.
                unusable.add(one.name());
            } else {
                listed.put(one.name(), one);
            }
        }
        unusable.forEach(listed::remove);
        if (!unusable.equals(lastUnusable)) {
            lastUnusable = unusable;
            if (!unusable.isEmpty()) {
                log.warn(
                        "MCP server {} lists {} tool(s) twice, differently, or with a definition longer than {}"
                                + " characters; they are neither recorded nor offered: {}",
                        server.label(),
                        unusable.size(),
                        UpstreamTools.MAX_DEFINITION_CHARS,
                        shown(unusable.stream()
                                .sorted()
                                .limit(LOGGED_PER_LISTING)
                                .toList()
                                .toString()));
            }
        }
        if (unnamed != lastUnnamed) {
            // Once per change, not once per tool and listing: a server listing a thousand nameless
            // entries every two seconds must not fill the log.
            lastUnnamed = unnamed;
            if (unnamed > 0) {
                log.warn(
                        "MCP server {} lists {} tool(s) without a valid name; they are not offered",
                        server.label(),
                        unnamed);
            }
        }
        Map<String, Object> outcomesNow = new java.util.HashMap<>();
        Map<String, Tool> offering = new LinkedHashMap<>();
        List<String> holding = new ArrayList<>();
        try (var scope = scopes.agent(server.tenant()).open()) {
            boolean first = !definitions.known(server.tenant(), server.name());
            if (first) {
                // From now on every definition not seen before is held, even if this listing offers nothing.
                definitions.markListed(server.tenant(), server.name(), clock.instant());
            }
            Map<String, Map<String, McpToolDefinitions.Status>> statuses =
                    definitions.statuses(server.tenant(), server.name());
            SecretRedactor secrets = redactor();
            int newlyHeld = 0;
            int unrecorded = 0;
            long pending = statuses.values().stream()
                    .filter(s -> s.containsValue(McpToolDefinitions.Status.PENDING))
                    .count();
            for (UpstreamTools.Listed one : listed.values()) {
                // As the console shows it: the server's secret values redacted (the digest is of the listing).
                String definition = secrets.redact(one.canonical());
                Map<String, McpToolDefinitions.Status> known = statuses.getOrDefault(one.name(), Map.of());
                McpToolDefinitions.Status status = known.get(one.sha256());
                if (status == null
                        && !first
                        && (known.containsValue(McpToolDefinitions.Status.PENDING)
                                || pending >= McpToolDefinitions.MAX_PENDING)) {
                    // Held, and not recorded again (one held definition per tool, at most MAX_PENDING per
                    // server): decided from this listing's statuses, without a statement per tool.
                    status = McpToolDefinitions.Status.PENDING;
                    unrecorded++;
                } else if (status == null) {
                    status = definitions.record(
                            server.tenant(),
                            server.name(),
                            one.name(),
                            one.sha256(),
                            definition,
                            first,
                            clock.instant());
                    if (status == McpToolDefinitions.Status.PENDING) {
                        pending++;
                    }
                    if (status != McpToolDefinitions.Status.APPROVED && ++newlyHeld <= LOGGED_PER_LISTING) {
                        log.warn(
                                "MCP server {}: tool {} is new or changed (definition {}); held until a tenant"
                                        + " administrator approves it",
                                server.label(),
                                shown(one.name()),
                                one.sha256());
                    }
                }
                if (status != McpToolDefinitions.Status.APPROVED) {
                    holding.add(one.name());
                    continue;
                }
                // One definition is compiled once: a server that lists hundreds of large schemas again
                // and again (it may say its tools changed every two seconds) costs no CPU for those
                // it listed before, and each refusal is logged when first seen.
                // Keyed by whether the definition shows one of today's secret values too (they may rotate).
                String key = one.sha256() + (definition.equals(one.canonical()) ? "" : "/shows-a-secret");
                Object outcome = outcomes.get(key);
                if (outcome == null) {
                    outcome = outcome(one, definition);
                    if (outcome instanceof String why) {
                        log.warn("MCP server {}: tool {} is not offered: {}", server.label(), shown(one.name()), why);
                    }
                }
                outcomesNow.put(key, outcome);
                if (outcome instanceof Tool compiled) {
                    offering.put(compiled.name(), compiled);
                } else {
                    holding.add(one.name());
                }
            }
            if (newlyHeld > LOGGED_PER_LISTING) {
                log.warn(
                        "MCP server {}: {} more tools are new or changed and held",
                        server.label(),
                        newlyHeld - LOGGED_PER_LISTING);
            }
            if (unrecorded != lastUnrecorded) {
                lastUnrecorded = unrecorded;
                if (unrecorded > 0) {
                    log.warn(
                            "MCP server {}: {} new or changed tools are held without being recorded (one held"
                                    + " definition per tool, at most {} per server, until people decide on those)",
                            server.label(),
                            unrecorded,
                            McpToolDefinitions.MAX_PENDING);
                }
            }
        }
        outcomes = Map.copyOf(outcomesNow);
        listing = Map.copyOf(listed);
        offered = Map.copyOf(offering);
        held = List.copyOf(holding);
        if (running) {
            // A listing read while the server was being stopped offers nothing: stop() has withdrawn its tools.
            catalog.offer(server.tenant(), server.name(), offering.values());
        }
    }

    /** A call that waited its whole {@code timeout} for the listing another call was reading. */
    private static McpFailure listingBusy(Duration timeout) {
        return new McpFailure(
                Termination.TIMED_OUT,
                "the server's tool listing, read again before every call, was busy for the call's whole timeout of "
                        + timeout.toMillis() + " ms; nothing was sent");
    }

    /** An approved definition compiled into the tool offered, or why it is not offered. */
    private Object outcome(UpstreamTools.Listed one, String definition) {
        if (!definition.equals(one.canonical())) {
            // A name, description, title or schema that holds a secret value of the server would show it
            // to every agent: such a tool is never offered.
            return "its definition holds one of the server's secret values";
        }
        try {
            Tool compiled = UpstreamTools.compile(
                    server.tenant(), server.name(), server.settings(), settingsSha256, server.key(), one);
            if (catalog.configured(server.tenant(), compiled.name())) {
                return "it has the name of a tenant tool";
            }
            return compiled;
        } catch (InvalidConfigurationException e) {
            return shown(e.getMessage());
        }
    }

    /**
     * Calls {@code tool} with {@code arguments}, if the server still lists it under the definition
     * {@code definitionSha256} and it is offered. The listing is read again first, and {@code
     * timeout} covers both: waiting for a listing another call is reading, the listing and the call
     * (a server slow to list its tools cannot hold a run, and its tenant's run slot, past its timeout).
     */
    McpChannel.Reply call(
            String tool,
            String definitionSha256,
            Map<String, Object> arguments,
            Duration timeout,
            Consumer<JsonNode> progress,
            Consumer<Runnable> onCancel)
            throws McpFailure {
        McpSession current = session;
        if (current == null || !current.isOpen()) {
            throw new McpFailure(
                    Termination.SERVER_DOWN,
                    "MCP server " + server.name() + " is not running ("
                            + (current == null ? down : current.closedReason()) + ")");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!listingLock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw listingBusy(timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpFailure(Termination.CANCELLED, "interrupted while waiting for the server's tool listing");
        }
        try {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw listingBusy(timeout);
            }
            refresh(current, Duration.ofNanos(left), onCancel);
        } finally {
            listingLock.unlock();
        }
        UpstreamTools.Listed now = listing.get(tool);
        if (now == null) {
            throw new McpFailure(Termination.REFUSED, "the server no longer lists tool " + tool);
        }
        if (!now.sha256().equals(definitionSha256)) {
            throw new McpFailure(
                    Termination.REFUSED,
                    "the tool's definition has changed since the run was requested (now " + now.sha256()
                            + "); nothing was sent");
        }
        if (!offered.containsKey(server.name() + UpstreamTools.SEPARATOR + tool)) {
            throw new McpFailure(Termination.REFUSED, "the tool is not offered now; nothing was sent");
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new McpFailure(
                    Termination.TIMED_OUT,
                    "the server's tool listing took the call's whole timeout of " + timeout.toMillis()
                            + " ms; nothing was sent");
        }
        return current.call(tool, arguments, Duration.ofNanos(left), progress, onCancel);
    }
}
