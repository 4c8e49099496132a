package dev.airlock.approval.audit.evidence;

import java.io.PrintStream;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar airlock-gateway.jar --spring.main.web-application-type=none --airlock.evidence.public-keys=acme}:
 * prints the tenant's evidence public keys as the verifier reads them ({@code --keys}) and stops;
 * exit status 0, or 1 when the tenant has no evidence keys.
 */
@Component
@ConditionalOnProperty(prefix = "airlock.evidence", name = "public-keys")
public class PublicKeysCommand implements ApplicationRunner, ExitCodeGenerator {

    /** The property that runs the command. */
    public static final String PROPERTY = "airlock.evidence.public-keys";

    private final EvidenceKeys keys;
    private final JsonMapper json;
    private final String tenant;
    private PrintStream out = System.out;
    private int exitCode;

    PublicKeysCommand(EvidenceKeys keys, JsonMapper json, @Value("${" + PROPERTY + "}") String tenant) {
        this.keys = keys;
        this.json = json;
        this.tenant = tenant;
    }

    /** Sends the keys to {@code stream} instead of standard output (for tests and embedding). */
    public void printTo(PrintStream stream) {
        this.out = stream;
    }

    @Override
    public void run(ApplicationArguments args) {
        Map<String, Object> document = keys.document(tenant.strip()).orElse(null);
        if (document == null) {
            System.err.println(
                    "Tenant " + tenant + " has no evidence keys (airlock.tenants." + tenant + ".evidence.keys)");
            exitCode = 1;
            return;
        }
        out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(document));
    }

    @Override
    public int getExitCode() {
        return exitCode;
    }
}
