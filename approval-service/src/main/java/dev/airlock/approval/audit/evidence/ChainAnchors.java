package dev.airlock.approval.audit.evidence;

import dev.airlock.approval.notify.ApprovalWebhooks;
import dev.airlock.evidence.Anchor;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.audit.AuditLog;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Signs each signing tenant's audit chain head on a schedule ({@code airlock.evidence.anchor-interval})
 * and publishes it as an {@code evidence.anchor} log line and, when the tenant has webhooks, an
 * {@code evidence.anchor} webhook. Whoever keeps an anchor can later show, with the verifier, that
 * no event up to it was removed or rewritten. Auditors may also fetch a fresh one at any time
 * ({@code GET /api/v1/audit/evidence/anchor}).
 */
@ConditionalOnSide(Side.CONSOLE)
@Component
public class ChainAnchors {

    private static final Logger log = LoggerFactory.getLogger(ChainAnchors.class);

    private final EvidenceKeys keys;
    private final AuditLog audit;
    private final ApprovalWebhooks webhooks;
    private final dev.airlock.persistence.scope.Scopes scopes;
    private final Clock clock;

    ChainAnchors(
            EvidenceKeys keys,
            AuditLog audit,
            ApprovalWebhooks webhooks,
            dev.airlock.persistence.scope.Scopes scopes,
            Clock clock) {
        this.keys = keys;
        this.audit = audit;
        this.webhooks = webhooks;
        this.scopes = scopes;
        this.clock = clock;
    }

    /** The tenant's chain head now, signed; empty when the tenant does not sign or has no events yet. */
    public Optional<Anchor> anchor(String tenant) {
        Optional<EvidenceKeys.Keyring> ring = keys.keyring(tenant);
        if (ring.isEmpty()) {
            return Optional.empty();
        }
        return scopes.eitherSide(List.of(tenant)).call(() -> audit.head(tenant)).map(head -> {
            String at = clock.instant().truncatedTo(ChronoUnit.MICROS).toString();
            return new Anchor(
                    tenant,
                    head.seq(),
                    head.hash(),
                    at,
                    ring.get().signingKey(),
                    ring.get()
                            .sign(dev.airlock.evidence.EvidenceFormat.anchorPayload(
                                    tenant, head.seq(), head.hash(), at)));
        });
    }

    @Scheduled(
            initialDelayString = "${airlock.evidence.anchor-interval:PT1H}",
            fixedDelayString = "${airlock.evidence.anchor-interval:PT1H}")
    void publish() {
        for (String tenant : keys.signingTenants()) {
            try {
                anchor(tenant).ifPresent(anchor -> {
                    log.info("evidence.anchor {}", anchor.toJson());
                    Map<String, Object> payload = new LinkedHashMap<>();
                    payload.put("tenant", tenant);
                    payload.put("anchor", dev.airlock.evidence.Json.object(anchor.toJson()));
                    webhooks.announce(tenant, "evidence.anchor", payload);
                });
            } catch (RuntimeException e) {
                log.error("Could not publish the chain anchor of tenant {}: {}", tenant, e.toString());
            }
        }
    }
}
