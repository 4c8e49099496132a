package dev.airlock.approval.audit;

import dev.airlock.approval.people.Human;
import dev.airlock.approval.people.HumanDirectory;
import dev.airlock.approval.people.Role;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.kernel.problem.Forbidden;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.stereotype.Component;

/**
 * Who may do what in the auditors' part of Airlock: AUDITORs of a tenant read its runs and ask
 * for raw access; AUDITORs and TENANT_ADMINs decide on others' raw-access requests; TENANT_ADMINs
 * place legal holds; APPROVERs see the runs that went through approval. Platform administrators
 * hold all of these in every tenant.
 */
@Component
public class AuditAccess {

    private final Set<String> tenants;

    AuditAccess(TenantNames tenantNames) {
        this.tenants = Set.copyOf(tenantNames.names());
    }

    /** The tenants whose runs the person may audit. */
    public Set<String> auditorTenants(Human human) {
        return withRoles(human, Role.AUDITOR);
    }

    /** The tenants where the person may decide on raw-access requests. */
    public Set<String> grantDeciderTenants(Human human) {
        return withRoles(human, Role.AUDITOR, Role.TENANT_ADMIN);
    }

    /** Throws 403 unless the person audits the tenant. */
    public void requireAuditor(Human human, String tenant) {
        if (!auditorTenants(human).contains(tenant)) {
            throw Forbidden.notAuditor(tenant);
        }
    }

    /**
     * Whether the person may read a run of the tenant with its output: AUDITORs and TENANT_ADMINs
     * read every run, APPROVERs only the runs that went through approval (the ones they are asked
     * to decide on). The console's run page and the auditor API both follow this rule.
     */
    public boolean maySeeRun(Human human, String tenant, boolean wentThroughApproval) {
        return withRoles(human, Role.AUDITOR, Role.TENANT_ADMIN).contains(tenant)
                || wentThroughApproval && withRoles(human, Role.APPROVER).contains(tenant);
    }

    /** The tenants the person administers (every tenant for a platform administrator). */
    public Set<String> adminTenants(Human human) {
        return withRoles(human, Role.TENANT_ADMIN);
    }

    /** Whether the person administers the tenant. */
    public boolean isTenantAdmin(Human human, String tenant) {
        return withRoles(human, Role.TENANT_ADMIN).contains(tenant);
    }

    /** Throws 403 unless the person administers the tenant. */
    public void requireTenantAdmin(Human human, String tenant) {
        if (!isTenantAdmin(human, tenant)) {
            throw Forbidden.notTenantAdmin(tenant);
        }
    }

    private Set<String> withRoles(Human human, Role... roles) {
        if (human.authorities().contains(HumanDirectory.PLATFORM_ADMIN)) {
            return tenants;
        }
        Set<String> result = new TreeSet<>();
        for (Role role : roles) {
            result.addAll(human.tenants(role));
        }
        return result;
    }
}
