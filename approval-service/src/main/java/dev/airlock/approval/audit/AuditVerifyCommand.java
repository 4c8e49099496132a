package dev.airlock.approval.audit;

import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.audit.AuditLog;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * {@code java -jar airlock-gateway.jar --spring.main.web-application-type=none --airlock.audit.verify=acme,globex}
 * (or {@code =*} for every configured tenant): walks each tenant's audit chain, prints one line per
 * tenant, and exits 0 when every chain is intact, 1 otherwise.
 */
@Component
@ConditionalOnProperty(prefix = "airlock.audit", name = "verify")
public class AuditVerifyCommand implements ApplicationRunner, ExitCodeGenerator {

    /** The property that asks for verification. */
    public static final String PROPERTY = "airlock.audit.verify";

    private final AuditLog audit;
    private final dev.airlock.persistence.scope.Scopes scopes;
    private final TenantNames tenantNames;
    private final String tenants;
    private PrintStream out = System.out;
    private int exitCode;

    AuditVerifyCommand(
            AuditLog audit,
            TenantNames tenantNames,
            @org.springframework.beans.factory.annotation.Value("${" + PROPERTY + "}") String tenants,
            dev.airlock.persistence.scope.Scopes scopes) {
        this.scopes = scopes;
        this.audit = audit;
        this.tenantNames = tenantNames;
        this.tenants = tenants;
    }

    /** Sends the report to {@code stream} instead of standard output (for tests and embedding). */
    public void printTo(PrintStream stream) {
        this.out = stream;
    }

    @Override
    public void run(ApplicationArguments args) {
        List<String> names = new ArrayList<>();
        for (String name : tenants.split(",")) {
            if (name.strip().equals("*")) {
                names.addAll(tenantNames.names());
            } else if (!name.isBlank()) {
                names.add(name.strip());
            }
        }
        if (names.isEmpty()) {
            out.printf("audit chain: no tenant named; give tenant names or '*'%n");
            exitCode = 2;
        }
        for (String tenant : names) {
            AuditLog.Verification v = scopes.eitherSide(List.of(tenant)).call(() -> audit.verify(tenant));
            if (v.intact() && v.verified() == 0 && !tenantNames.contains(tenant)) {
                // A misspelled name has no chain at all: "intact, 0 event(s)" would pass a check that checked nothing.
                out.printf(
                        "audit chain of %s: NOT FOUND: no such tenant is configured and none has audit events%n",
                        tenant);
                exitCode = exitCode == 1 ? 1 : 2;
            } else if (v.intact()) {
                out.printf("audit chain of %s: intact, %d event(s), head %s%n", tenant, v.verified(), v.head());
            } else {
                out.printf(
                        "audit chain of %s: BROKEN at event %d (%s); %d event(s) verified before it%n",
                        tenant, v.brokenAt(), v.problem(), v.verified());
                exitCode = 1; // a broken chain outranks a name that was not found
            }
        }
    }

    @Override
    public int getExitCode() {
        return exitCode;
    }
}
