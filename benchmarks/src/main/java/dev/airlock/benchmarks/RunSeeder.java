package dev.airlock.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Seeds finished runs with SQL ({@code INSERT ... SELECT} over {@code generate_series}), for the
 * audit query benchmark and for the gateway load script's "flat with scale" rows. Every seeded
 * run is marked {@code claimed_by = 'seeded'}; the later steps (approvals, transcripts, stream
 * facts, raw artifacts, audit events) act on those runs only, so a database that already holds
 * real runs keeps them as they are. Seeded runs are all finished (COMPLETED, FAILED, TIMED_OUT,
 * DENIED), so a running gateway never claims or expires one. Must run as the tables' owner (the
 * embedded superuser): it writes what no application role may.
 *
 * <p>As a program, against the embedded PostgreSQL of a running gateway:
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.airlock.benchmarks.RunSeeder DATA_DIR RUNS [TENANT] [SHARE]</pre>
 * seeds RUNS runs over the last 30 days: SHARE (default 0.9) of them in TENANT (default
 * {@code load}), the rest spread evenly over the other tenants in the database, each with its own
 * agents and tools as the gateway registered them; with the gateway's full set of records per run.
 * The port comes from {@code DATA_DIR/postgres/postmaster.pid}, the superuser's password from
 * {@code DATA_DIR/postgres.password}.
 */
public final class RunSeeder {

    /** The node name seeded runs are marked with. */
    public static final String MARK = "seeded";

    private final JdbcTemplate jdbc;
    private final long started = System.nanoTime();

    public RunSeeder(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One tenant's share: {@code runs} runs, the i-th created at {@code from + i * step}, agent
     * {@code agents[i % n]}, tool {@code tools[i % m]} under snapshot {@code snapshots[i % m]}.
     */
    public record Batch(
            String tenant,
            int runs,
            List<String> agents,
            List<String> tools,
            List<Long> snapshots,
            Instant from,
            Duration step) {}

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        int runs = Integer.parseInt(args[1]);
        String main = args.length > 2 ? args[2] : "load";
        double share = args.length > 3 ? Double.parseDouble(args[3]) : 0.9;
        String port = Files.readAllLines(dataDir.resolve("postgres/postmaster.pid"))
                .get(3)
                .strip();
        String password = Files.readString(dataDir.resolve("postgres.password"), StandardCharsets.US_ASCII)
                .strip();
        try (SingleConnectionDataSource owner = new SingleConnectionDataSource(
                "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", password, true)) {
            JdbcTemplate jdbc = new JdbcTemplate(owner);
            // Bulk load: no flush to disk per statement, bigger sorts; both for this session only.
            jdbc.execute("SET synchronous_commit = off");
            jdbc.execute("SET maintenance_work_mem = '256MB'");
            jdbc.execute("SET work_mem = '64MB'");
            List<String> tenants = jdbc.queryForList("SELECT name FROM airlock.tenants ORDER BY name", String.class);
            if (!tenants.contains(main)) {
                throw new IllegalArgumentException("no tenant " + main + " in the database; tenants: " + tenants);
            }
            List<String> others = tenants.stream().filter(t -> !t.equals(main)).toList();
            int mainRuns = others.isEmpty() ? runs : (int) Math.round(runs * share);
            Instant end = Instant.now().minus(Duration.ofMinutes(1));
            Instant from = end.minus(Duration.ofDays(30));
            List<Batch> batches = new ArrayList<>();
            batches.add(batch(jdbc, main, mainRuns, from, end));
            for (int i = 0; i < others.size(); i++) {
                int count = (runs - mainRuns) / others.size() + (i < (runs - mainRuns) % others.size() ? 1 : 0);
                if (count > 0) {
                    batches.add(batch(jdbc, others.get(i), count, from, end));
                }
            }
            System.err.printf(
                    "Seeding %,d runs: %,d in %s, %,d over %d other tenant(s), %s to %s%n",
                    runs, mainRuns, main, runs - mainRuns, others.size(), from, end);
            RunSeeder seeder = new RunSeeder(jdbc);
            seeder.seed(batches, true);
            // Leave nothing for autovacuum to do while the gateway is measured.
            jdbc.execute("VACUUM");
            seeder.progress("vacuumed");
            seeder.progress("done: " + String.join(", ", seeder.sizes()));
        }
    }

    /** A batch of {@code tenant} with the agents and (newest) tool snapshots the gateway registered for it. */
    private static Batch batch(JdbcTemplate jdbc, String tenant, int runs, Instant from, Instant end) {
        List<String> agents = jdbc.queryForList(
                "SELECT name FROM airlock.agents WHERE tenant = ? ORDER BY name", String.class, tenant);
        List<Map<String, Object>> snapshots = jdbc.queryForList("""
                SELECT DISTINCT ON (tool) tool, id FROM airlock.tool_snapshots WHERE tenant = ? ORDER BY tool, id DESC""", tenant);
        if (agents.isEmpty() || snapshots.isEmpty()) {
            throw new IllegalStateException("tenant " + tenant + " has no agents or no tools in the database");
        }
        return new Batch(
                tenant,
                runs,
                agents,
                snapshots.stream().map(s -> (String) s.get("tool")).toList(),
                snapshots.stream().map(s -> ((Number) s.get("id")).longValue()).toList(),
                from,
                Duration.between(from, end).dividedBy(Math.max(1, runs)));
    }

    /**
     * Seeds the batches' runs, an approval request and a decision for one run in ten (and every
     * denied one), and a stdout transcript for every run; with {@code full}, also what the gateway
     * writes for every run it finishes: a stderr transcript, stream facts for both streams, the
     * raw artifact (purged, as retention would, when older than 7 days) and three audit events
     * (requested, started, finished) continuing each tenant's chain. The seeded events' hashes
     * are stand-ins, not SHA-256 of their content: appending reads only the last event, but
     * verifying a seeded tenant's chain fails. Ends with ANALYZE.
     */
    public void seed(List<Batch> batches, boolean full) {
        jdbc.execute("SELECT setseed(0.42)");
        // UUIDv7 (a 48-bit Unix millisecond timestamp, then random bits) as the gateway makes them,
        // so that seeded ids sort by time and index like real ones. Session-local: leaves nothing behind.
        jdbc.execute("""
                CREATE FUNCTION pg_temp.uuid7(t timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
                  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                         PLACING substring(int8send(floor(extract(epoch FROM t) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
                         52, 1), 53, 1), 'hex')::uuid $$""");
        long total = 0;
        for (Batch batch : batches) {
            insertRuns(batch);
            total += batch.runs();
            if (batches.size() < 10 || total % 100_000 < batch.runs()) {
                progress(String.format("runs: %,d", total));
            }
        }
        jdbc.execute("""
                INSERT INTO airlock.approval_requests (run_id, tenant, tool, agent, action, digest, approvers_required, status,
                                                       created_at, expires_at, closed_at)
                SELECT id, tenant, tool, agent, 'tool: ' || tool, encode(sha256(convert_to('tool: ' || tool, 'UTF8')), 'hex'), 1,
                       CASE WHEN state = 'DENIED' THEN 'DENIED' ELSE 'APPROVED' END,
                       created_at, created_at + interval '1 hour', created_at + interval '2 minutes'
                  FROM airlock.runs WHERE approval_required AND claimed_by = 'seeded'""");
        jdbc.execute("""
                INSERT INTO airlock.approval_decisions (run_id, approver, decision, reason, digest, decided_at)
                SELECT a.run_id, 'approver-' || (abs(hashtext(a.run_id::text)) % 7),
                       CASE WHEN a.status = 'DENIED' THEN 'DENY' ELSE 'APPROVE' END, 'change ticket', a.digest,
                       a.created_at + interval '2 minutes'
                  FROM airlock.approval_requests a JOIN airlock.runs r ON r.id = a.run_id WHERE r.claimed_by = 'seeded'""");
        progress("approval requests and decisions");
        jdbc.execute("""
                INSERT INTO airlock.transcripts (run_id, stream, text, created_at)
                SELECT id, 'stdout',
                       'deployed ' || tool || ' build ' || md5(id::text) || E'\\n'
                       || CASE WHEN random() < 0.0001 THEN 'needle-in-the-haystack found' ELSE 'all checks passed' END,
                       coalesce(ended_at, created_at)
                  FROM airlock.runs WHERE claimed_by = 'seeded'""");
        progress("stdout transcripts");
        if (full) {
            seedGatewayRecords();
        }
        jdbc.execute("ANALYZE");
        progress("analyzed");
    }

    private void insertRuns(Batch b) {
        jdbc.update(
                """
                INSERT INTO airlock.runs (id, tenant, agent, tool, tool_snapshot_id, arguments, argv, request_sha256, state,
                                          approval_required, claimed_by, exit_code, termination, created_at, updated_at,
                                          started_at, ended_at, lease_until, sandbox)
                SELECT pg_temp.uuid7(t), ?, (?::text[])[i % cardinality(?::text[]) + 1],
                       (?::text[])[i % cardinality(?::text[]) + 1], (?::bigint[])[i % cardinality(?::bigint[]) + 1],
                       '{}', '[]', md5(i::text),
                       CASE WHEN r < 0.005 THEN 'DENIED' WHEN r < 0.015 THEN 'TIMED_OUT' WHEN r < 0.04 THEN 'FAILED'
                            ELSE 'COMPLETED' END,
                       i % 10 = 0 OR r < 0.005, 'seeded',
                       CASE WHEN r < 0.005 THEN NULL WHEN r < 0.015 THEN -1 WHEN r < 0.016 THEN 3 WHEN r < 0.04 THEN 1 ELSE 0 END,
                       CASE WHEN r < 0.005 THEN NULL WHEN r < 0.015 THEN 'TIMEOUT' ELSE 'EXITED' END,
                       t, t, t + interval '1 second', t + interval '3 seconds', t + interval '30 seconds',
                       CASE WHEN r < 0.005 THEN NULL ELSE 'BUBBLEWRAP' END
                  FROM (SELECT i, random() AS r, ?::timestamptz + ((i - 1) * ?::interval) AS t
                          FROM generate_series(1, ?) AS i) AS g
                """,
                b.tenant(),
                array(b.agents()),
                array(b.agents()),
                array(b.tools()),
                array(b.tools()),
                array(b.snapshots()),
                array(b.snapshots()),
                Timestamp.from(b.from()),
                b.step().toNanos() / 1000 + " microseconds",
                b.runs());
    }

    private static String array(List<?> values) {
        StringBuilder literal = new StringBuilder("{");
        for (Object v : values) {
            literal.append(literal.length() > 1 ? "," : "")
                    .append('"')
                    .append(v.toString().replace("\\", "\\\\").replace("\"", "\\\""))
                    .append('"');
        }
        return literal.append('}').toString();
    }

    /** What the gateway writes besides the run and its stdout transcript, for the seeded runs. */
    private void seedGatewayRecords() {
        jdbc.execute("""
                INSERT INTO airlock.transcripts (run_id, stream, text, created_at)
                SELECT id, 'stderr', '', coalesce(ended_at, created_at) FROM airlock.runs WHERE claimed_by = 'seeded'""");
        progress("stderr transcripts");
        jdbc.execute("""
                INSERT INTO airlock.run_streams (run_id, stream, observed_bytes, retained_bytes, truncated, eof, sha256, removed,
                                                 redactions)
                SELECT r.id, s.stream, s.bytes, s.bytes, false, true, md5(s.stream || r.id::text) || md5(r.id::text || s.stream),
                       '{"csi":0,"osc":0,"c0":0,"c1":0,"invisible":0,"invalidUtf8":0,"esc":0,"dcs":0,"sosPmApc":0,"del":0,'
                       || '"cr":0,"bs":0,"unterminatedStrings":0,"stringPayloadBytes":0}', 0
                  FROM airlock.runs r
                  CROSS JOIN LATERAL (VALUES ('stdout', 60 + length(r.tool)), ('stderr', 0)) AS s (stream, bytes)
                 WHERE r.claimed_by = 'seeded'
                 ORDER BY r.id, s.stream""");
        progress("stream facts");
        // Raw bytes older than the default raw retention (7 days) are purged, as the retention job leaves them.
        jdbc.execute("""
                INSERT INTO restricted.raw_artifacts (run_id, tenant, sha256, stdout, stderr, stdout_bytes, stderr_bytes,
                                                      redactions, created_at, purged_at)
                SELECT r.id, r.tenant, md5(r.id::text) || md5(r.tenant || r.id::text),
                       CASE WHEN old THEN NULL ELSE convert_to(t.text, 'UTF8') END, CASE WHEN old THEN NULL ELSE ''::bytea END,
                       octet_length(t.text), 0, 0, t.created_at,
                       CASE WHEN old THEN t.created_at + interval '7 days 1 hour' END
                  FROM airlock.runs r JOIN airlock.transcripts t ON t.run_id = r.id AND t.stream = 'stdout'
                  CROSS JOIN LATERAL (SELECT t.created_at < now() - interval '7 days' AS old) AS o
                 WHERE r.claimed_by = 'seeded'
                 ORDER BY r.id""");
        progress("raw artifacts");
        // Three events per run, numbered after each tenant's last event; stand-in hashes (see seed).
        jdbc.execute("""
                INSERT INTO airlock.audit_events (tenant, seq, type, run_id, actor, details, occurred_at, prev_hash, hash)
                SELECT e.tenant, e.seq, e.type, e.run_id, e.actor, e.details, e.occurred_at,
                       CASE WHEN e.seq = h.seq + 1 THEN h.hash
                            ELSE md5(e.tenant || '/' || (e.seq - 1)) || md5((e.seq - 1) || '/' || e.tenant) END,
                       md5(e.tenant || '/' || e.seq) || md5(e.seq || '/' || e.tenant)
                  FROM (SELECT r.tenant, h.seq + 3 * (r.n - 1) + k AS seq, r.id AS run_id,
                               (ARRAY['run.requested', 'run.started', 'run.finished'])[k] AS type,
                               CASE k WHEN 1 THEN 'agent:' || r.agent ELSE 'airlock' END AS actor,
                               CASE k WHEN 1 THEN '{"request":"' || r.request_sha256 || '","state":"RUNNING","tool":"' || r.tool || '"}'
                                      WHEN 2 THEN '{"sandbox":"bubblewrap","tool":"' || r.tool || '"}'
                                      ELSE '{"exitCode":"' || coalesce(r.exit_code::text, '') || '","termination":"'
                                           || coalesce(r.termination, '') || '"}' END AS details,
                               CASE k WHEN 1 THEN r.created_at WHEN 2 THEN r.started_at ELSE r.ended_at END AS occurred_at
                          FROM (SELECT *, row_number() OVER (PARTITION BY tenant ORDER BY created_at, id) AS n
                                  FROM airlock.runs WHERE claimed_by = 'seeded') AS r
                          JOIN heads h ON h.tenant = r.tenant
                         CROSS JOIN generate_series(1, 3) AS k) AS e
                  JOIN heads h ON h.tenant = e.tenant
                 ORDER BY e.tenant, e.seq""".replace("heads", """
                (SELECT t.name AS tenant, coalesce(l.seq, 0) AS seq, coalesce(l.hash, repeat('0', 64)) AS hash
                   FROM airlock.tenants t
                   LEFT JOIN LATERAL (SELECT seq, hash FROM airlock.audit_events a WHERE a.tenant = t.name
                                       ORDER BY seq DESC LIMIT 1) AS l ON true)"""));
        progress("audit events");
    }

    /** Rows per seeded table and the database's size. */
    public List<String> sizes() {
        List<String> sizes = new ArrayList<>();
        for (String table : List.of(
                "airlock.runs",
                "airlock.transcripts",
                "airlock.run_streams",
                "restricted.raw_artifacts",
                "airlock.audit_events",
                "airlock.approval_requests")) {
            Long rows = jdbc.queryForObject("SELECT count(*) FROM " + table, Long.class);
            sizes.add(String.format("%s %,d", table.substring(table.indexOf('.') + 1), rows));
        }
        sizes.add("database "
                + jdbc.queryForObject("SELECT pg_size_pretty(pg_database_size(current_database()))", String.class));
        return sizes;
    }

    private void progress(String what) {
        System.err.printf("  [%4.0f s] seeded %s%n", (System.nanoTime() - started) / 1e9, what);
    }
}
