package dev.airlock.approval.audit.web;

import dev.airlock.approval.audit.AuditAccess;
import dev.airlock.approval.audit.evidence.ChainAnchors;
import dev.airlock.approval.audit.evidence.EvidenceBundles;
import dev.airlock.approval.audit.evidence.EvidenceKeys;
import dev.airlock.approval.audit.evidence.EvidenceScope;
import dev.airlock.approval.audit.evidence.NoEvidenceKey;
import dev.airlock.approval.people.Human;
import dev.airlock.evidence.Json;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.Forbidden;
import dev.airlock.kernel.problem.InvalidRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Evidence bundles and what verifies them (docs/evidence.md): the export, for AUDITORs of the
 * tenant; the tenant's public keys and a fresh signed chain anchor, for its AUDITORs and
 * TENANT_ADMINs. Agents never reach it.
 */
@ConditionalOnSide(Side.CONSOLE)
@RestController
@RequestMapping("/api/v1/audit/evidence")
class EvidenceController {

    private final EvidenceBundles bundles;
    private final EvidenceKeys keys;
    private final ChainAnchors anchors;
    private final AuditAccess access;

    EvidenceController(EvidenceBundles bundles, EvidenceKeys keys, ChainAnchors anchors, AuditAccess access) {
        this.bundles = bundles;
        this.keys = keys;
        this.anchors = anchors;
        this.access = access;
    }

    /** A signed bundle of one run ({@code runId}) or of the runs created in {@code [from, to)}, streamed as a zip. */
    @PostMapping
    void export(
            Authentication authentication,
            @RequestParam String tenant,
            @RequestParam(required = false) @Nullable String runId,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            HttpServletResponse response)
            throws IOException {
        Human human = Human.of(authentication);
        EvidenceScope scope = EvidenceScope.of(runId, from, to);
        EvidenceKeys.Keyring ring = bundles.prepare(human, tenant, scope);
        response.setContentType("application/zip");
        response.setHeader(
                HttpHeaders.CONTENT_DISPOSITION,
                "attachment; filename=\"airlock-evidence-" + tenant + (scope.runId() != null ? "-" + scope.runId() : "")
                        + ".zip\"");
        response.setHeader("X-Content-Type-Options", "nosniff");
        bundles.export(human, tenant, scope, ring, response.getOutputStream());
    }

    /** The tenant's public keys, current and old, as the verifier reads them. */
    @GetMapping("/keys")
    Map<String, Object> keys(Authentication authentication, @RequestParam String tenant) {
        requireReader(Human.of(authentication), tenant);
        return keys.document(tenant).orElseThrow(() -> new NoEvidenceKey(tenant));
    }

    /** The tenant's chain head now, signed: an anchor to keep. */
    @GetMapping("/anchor")
    Map<String, Object> anchor(Authentication authentication, @RequestParam String tenant) {
        requireReader(Human.of(authentication), tenant);
        if (keys.keyring(tenant).isEmpty()) {
            throw new NoEvidenceKey(tenant);
        }
        return anchors.anchor(tenant)
                .map(a -> Json.object(a.toJson()))
                .orElseThrow(() -> InvalidRequest.because("Tenant " + tenant + " has no audit events to anchor yet."));
    }

    private void requireReader(Human human, String tenant) {
        if (!access.auditorTenants(human).contains(tenant) && !access.isTenantAdmin(human, tenant)) {
            throw Forbidden.notAuditor(tenant);
        }
    }
}
