package dev.airlock.gateway.audit.web;

import dev.airlock.gateway.human.Human;
import dev.airlock.gateway.human.HumanDirectory;
import dev.airlock.gateway.human.Role;
import dev.airlock.gateway.problem.Forbidden;
import dev.airlock.gateway.problem.RunNotFound;
import dev.airlock.persistence.audit.AuditLog;
import java.util.List;
import java.util.UUID;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The audit event log, for people with the AUDITOR role in the tenant (platform administrators
 * in every tenant). Agents never reach it.
 */
@RestController
@RequestMapping("/api/v1/audit")
class AuditController {

    private final AuditLog audit;

    AuditController(AuditLog audit) {
        this.audit = audit;
    }

    /** Walks the tenant's hash chain and reports the first break, if any. */
    @GetMapping("/verify")
    AuditLog.Verification verify(Authentication authentication, @RequestParam String tenant) {
        requireAuditor(authentication, tenant);
        return audit.verify(tenant);
    }

    /** The events about one run of the tenant, in order. */
    @GetMapping("/runs/{runId}/events")
    List<AuditLog.AuditEvent> events(Authentication authentication, @RequestParam String tenant, @PathVariable UUID runId) {
        requireAuditor(authentication, tenant);
        List<AuditLog.AuditEvent> events = audit.forRun(tenant, runId);
        if (events.isEmpty()) {
            throw RunNotFound.forId(runId);
        }
        return events;
    }

    private static void requireAuditor(Authentication authentication, String tenant) {
        Human human = Human.of(authentication);
        if (!human.tenants(Role.AUDITOR).contains(tenant) && !human.authorities().contains(HumanDirectory.PLATFORM_ADMIN)) {
            throw Forbidden.notAuditor(tenant);
        }
    }
}
