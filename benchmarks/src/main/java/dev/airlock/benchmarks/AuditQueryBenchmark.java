package dev.airlock.benchmarks;

import dev.airlock.persistence.audit.AuditRunSearch;
import dev.airlock.persistence.audit.RunQuery;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.IntFunction;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The audit query benchmark: seeds a fresh embedded PostgreSQL 17 (migrated by the real Flyway
 * migrations) with 1,000,000 runs in one tenant (plus 200,000 in another), with approvals,
 * decisions and transcripts, then times each kind of audit query through the real
 * {@link AuditRunSearch} and prints p50/p95/p99 in milliseconds with the ratio of each p95 to the
 * baseline measured in the same process: fetching one run by primary key over the same
 * connection.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.airlock.benchmarks.AuditQueryBenchmark [runs] [iterations]</pre>
 *
 * The data is seeded with a fixed random seed, so every run asks the same questions of the same
 * data.
 */
public final class AuditQueryBenchmark {

    private static final String TENANT = "bench";
    private static final Instant START = Instant.parse("2026-10-01T00:00:00Z");
    private static final List<String> TOOLS = List.of("deploy", "migrate", "list-pods", "restart", "backup");

    private AuditQueryBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path dir = Files.createTempDirectory("airlock-audit-bench");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dir.resolve("data"))
                .setCleanDataDirectory(true)
                .setServerConfig("max_wal_size", "4GB")
                .start()) {
            DataSource pooled = postgres.getPostgresDatabase();
            Flyway.configure()
                    .dataSource(pooled)
                    .schemas("airlock", "restricted")
                    .defaultSchema("airlock")
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
            try (Connection connection = pooled.getConnection()) {
                SingleConnectionDataSource single = new SingleConnectionDataSource(connection, true);
                long seeding = System.nanoTime();
                seed(new JdbcTemplate(single), runs);
                System.err.printf(
                        "Seeded %,d runs (+%,d in another tenant) in %.0f s%n",
                        runs, runs / 5, (System.nanoTime() - seeding) / 1e9);
                // The tenant as the application sets it; the owner's queries ignore it (row-level security
                // does not apply to the table owner), the search functions check it.
                new JdbcTemplate(single).execute("SET airlock.tenants = '{" + TENANT + "}'");
                System.out.printf("%nAs the table owner (row-level security does not apply):%n");
                measure(single, runs, iterations);
                // The console's role, as the application runs these queries.
                new JdbcTemplate(single).execute("SET ROLE airlock_console");
                System.out.printf(
                        "%nAs airlock_console with airlock.tenants = {%s} (row-level security applies):%n", TENANT);
                measure(single, runs, iterations);
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    private static void seed(JdbcTemplate jdbc, int runs) {
        jdbc.execute("INSERT INTO airlock.tenants (name) VALUES ('bench'), ('other')");
        for (String tool : TOOLS) {
            for (String tenant : List.of("bench", "other")) {
                jdbc.update(
                        "INSERT INTO airlock.tool_snapshots (tenant, tool, sha256, definition) VALUES (?, ?, ?, '{}')",
                        tenant,
                        tool,
                        "sha-" + tool);
            }
        }
        List<String> agents = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> "agent-" + i)
                .toList();
        Duration step = Duration.ofMillis(2600);
        List<RunSeeder.Batch> batches = new ArrayList<>();
        for (String tenant : List.of("bench", "other")) {
            List<Long> snapshots = TOOLS.stream()
                    .map(tool -> jdbc.queryForObject(
                            "SELECT id FROM airlock.tool_snapshots WHERE tenant = ? AND tool = ?",
                            Long.class,
                            tenant,
                            tool))
                    .toList();
            batches.add(new RunSeeder.Batch(
                    tenant, tenant.equals(TENANT) ? runs : runs / 5, agents, TOOLS, snapshots, START.plus(step), step));
        }
        new RunSeeder(jdbc).seed(batches, false);
    }

    private static void measure(DataSource dataSource, int runs, int iterations) throws SQLException {
        AuditRunSearch search = new AuditRunSearch(dataSource);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        List<UUID> ids = jdbc.queryForList(
                "SELECT id FROM airlock.runs WHERE tenant = 'bench' ORDER BY random() LIMIT 1000", UUID.class);
        Instant end = START.plus(Duration.ofMillis(2600L * runs));
        Random random = new Random(7);
        Map<String, IntFunction<Object>> queries = new LinkedHashMap<>();
        queries.put(
                "baseline: one run by primary key",
                i -> jdbc.queryForMap("SELECT * FROM airlock.runs WHERE id = ?", ids.get(i % ids.size())));
        queries.put("tenant, newest first", i -> search.page(query(f -> {})));
        queries.put(
                "tenant, oldest first",
                i -> search.page(query(f -> {
                    f.oldest = true;
                })));
        queries.put("time range (one day)", i -> {
            Instant from = START.plus(Duration.ofDays(random.nextInt(25)));
            return search.page(query(f -> {
                f.from = from;
                f.to = from.plus(Duration.ofDays(1));
            }));
        });
        queries.put(
                "agent",
                i -> search.page(query(f -> {
                    f.agent = "agent-" + (i % 50);
                })));
        queries.put(
                "tool + state FAILED",
                i -> search.page(query(f -> {
                    f.tool = TOOLS.get(i % 5);
                    f.state = "FAILED";
                })));
        queries.put(
                "approver + decision DENY",
                i -> search.page(query(f -> {
                    f.approver = "approver-" + (i % 7);
                    f.decision = "DENY";
                })));
        queries.put("approver (common)", i -> search.page(query(f -> f.approver = "approver-" + (i % 7))));
        queries.put("decision APPROVE (common)", i -> search.page(query(f -> f.decision = "APPROVE")));
        queries.put(
                "exit code 3 (rare)",
                i -> search.page(query(f -> {
                    f.exitCode = 3;
                })));
        queries.put(
                "termination TIMEOUT",
                i -> search.page(query(f -> {
                    f.termination = "TIMEOUT";
                })));
        queries.put("agent + exit 1 + one week", i -> {
            Instant from = START.plus(Duration.ofDays(random.nextInt(20)));
            return search.page(query(f -> {
                f.agent = "agent-" + (i % 50);
                f.exitCode = 1;
                f.from = from;
                f.to = from.plus(Duration.ofDays(7));
            }));
        });
        queries.put(
                "text: rare phrase",
                i -> search.page(query(f -> {
                    f.text = "needle-in-the";
                })));
        queries.put(
                "text: 5 hex digits of a digest",
                i -> search.page(query(f -> f.text = String.format("%05x", random.nextInt(1 << 20)))));
        queries.put(
                "text: common phrase",
                i -> search.page(query(f -> {
                    f.text = "checks passed";
                })));
        queries.put("100 pages one after another (total)", i -> {
            RunQuery q = query(f -> {});
            AuditRunSearch.Page page = search.page(q);
            for (int p = 1; p < 100 && page.next() != null; p++) {
                page = search.page(q.after(page.next()));
            }
            return page;
        });
        queries.put("cursor from the middle", i -> {
            Instant at = START.plus(Duration.ofSeconds(
                    random.nextLong(Duration.between(START, end).toSeconds())));
            return search.page(query(f -> {}).after(new RunQuery.Cursor(at, new UUID(-1, -1))));
        });

        System.out.printf(
                "%n%,d runs in tenant %s (%,d in all); %d timed iterations per query after %d warm-up; page size 50.%n%n",
                runs, TENANT, runs + runs / 5, iterations, Math.max(50, iterations / 4));
        System.out.println("| query | p50 ms | p95 ms | p99 ms | p95 / baseline p95 | rows on page |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        double baseline = Double.NaN;
        for (var entry : queries.entrySet()) {
            for (int i = 0; i < Math.max(50, iterations / 4); i++) {
                entry.getValue().apply(i);
            }
            double[] millis = new double[iterations];
            Object last = null;
            for (int i = 0; i < iterations; i++) {
                long t0 = System.nanoTime();
                last = entry.getValue().apply(i);
                millis[i] = (System.nanoTime() - t0) / 1e6;
            }
            Arrays.sort(millis);
            double p95 = percentile(millis, 0.95);
            if (Double.isNaN(baseline)) {
                baseline = p95;
            }
            String rows = last instanceof AuditRunSearch.Page page
                    ? Integer.toString(page.runs().size())
                    : "1";
            System.out.printf(
                    "| %s | %.2f | %.2f | %.2f | %.1f× | %s |%n",
                    entry.getKey(), percentile(millis, 0.50), p95, percentile(millis, 0.99), p95 / baseline, rows);
        }
    }

    private static double percentile(double[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** A first-page query of the seeded tenant, with the filters {@code filters} sets. */
    private static RunQuery query(java.util.function.Consumer<Filters> filters) {
        Filters f = new Filters();
        filters.accept(f);
        return new RunQuery(
                TENANT,
                f.from,
                f.to,
                f.agent,
                f.tool,
                f.state,
                f.approver,
                f.decision,
                f.exitCode,
                f.termination,
                f.text,
                f.oldest,
                50,
                null);
    }

    /** The filters of a benchmark query; unset ones are null. */
    private static final class Filters {
        Instant from;
        Instant to;
        String agent;
        String tool;
        String state;
        String approver;
        String decision;
        Integer exitCode;
        String termination;
        String text;
        boolean oldest;
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
