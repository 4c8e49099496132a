package dev.airlock.gateway.upstream;

import dev.airlock.egress.Egress;
import dev.airlock.egress.Upstream;
import dev.airlock.egress.UpstreamPolicy;
import dev.airlock.gateway.capture.SecretReference;
import dev.airlock.gateway.capture.SecretSource;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tool.HttpUpstream;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.config.TenantNames;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The guarded client of every tenant upstream, made at start-up: a trust store that cannot be read
 * or a setting the client cannot honour stops the start naming the key. Each client's resilience
 * metrics carry the name {@code <tenant>/<upstream>}.
 */
@Component
public class UpstreamClients {

    private final Map<String, Upstream> clients = new ConcurrentHashMap<>();
    private final Map<String, HttpUpstream> terms = new ConcurrentHashMap<>();

    UpstreamClients(AgentSettings settings, TenantNames tenants, Egress egress, SecretSource secrets) {
        for (String tenant : tenants.names()) {
            settings.tenant(tenant).upstreams().forEach((name, upstream) -> {
                String key = "airlock.tenants." + tenant + ".upstreams." + name;
                // "/" is in no tenant or upstream name, so no two pairs share a client (and its breaker).
                clients.put(tenant + "/" + name, egress.upstream(tenant + "/" + name, policy(upstream, key, secrets)));
                terms.put(tenant + "/" + name, dev.airlock.gateway.tool.ToolCompiler.upstream(name, upstream, key));
            });
        }
    }

    /**
     * {@code tenant}'s upstream {@code name} as configured now (base URL, network permission, where
     * its credential comes from), to compare with what a run recorded.
     */
    public Optional<HttpUpstream> terms(String tenant, String name) {
        return Optional.ofNullable(terms.get(tenant + "/" + name));
    }

    /** The client of {@code tenant}'s upstream {@code name}, if it is configured now. */
    public Optional<Upstream> client(String tenant, String name) {
        return Optional.ofNullable(clients.get(tenant + "/" + name));
    }

    /** The guarded client's policy for an upstream's settings, checked (the key names a setting it cannot honour). */
    public static UpstreamPolicy policy(AgentSettings.Upstream upstream, String key, SecretSource secrets) {
        AgentSettings.CircuitBreaker breaker = upstream.circuitBreaker();
        if (breaker.minimumCalls() > breaker.slidingWindowSize()) {
            throw new InvalidConfigurationException(
                    key + ".circuit-breaker.minimum-calls", "must not exceed circuit-breaker.sliding-window-size");
        }
        return new UpstreamPolicy(
                upstream.allowPrivateNetwork(),
                tls(upstream.tls(), key + ".tls", secrets),
                upstream.timeout(),
                upstream.maxResponseBytes().toBytes(),
                new UpstreamPolicy.Breaker(
                        breaker.failureRateThreshold(),
                        breaker.slowCallDuration(),
                        breaker.slowCallRateThreshold(),
                        breaker.minimumCalls(),
                        breaker.slidingWindowSize(),
                        breaker.waitInOpenState()),
                new UpstreamPolicy.RetryPolicy(
                        upstream.retry().maxAttempts(), upstream.retry().backoff()),
                upstream.maxConcurrentCalls());
    }

    /** The TLS context trusting the configured CAs, or null for the JDK's trust. */
    private static @Nullable SSLContext tls(AgentSettings.Tls tls, String key, SecretSource secrets) {
        Path store = tls.trustStore();
        if (store == null) {
            if (tls.trustStorePassword() != null) {
                throw new InvalidConfigurationException(key + ".trust-store-password", "is set without a trust-store");
            }
            return null;
        }
        char[] password = null;
        if (tls.trustStorePassword() != null) {
            try {
                password = SecretReference.parse(tls.trustStorePassword())
                        .read(secrets)
                        .toCharArray();
            } catch (IllegalArgumentException | SecretReference.SecretUnavailable e) {
                throw new InvalidConfigurationException(
                        key + ".trust-store-password", "cannot be read: " + e.getMessage());
            }
        }
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance(tls.trustStoreType());
            keys.load(in, password);
            if (keys.size() == 0) {
                throw new InvalidConfigurationException(key + ".trust-store", store + " holds no certificate");
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(keys);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new InvalidConfigurationException(
                    key + ".trust-store",
                    store + " cannot be used as a " + tls.trustStoreType() + " trust store: "
                            + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        }
    }
}
