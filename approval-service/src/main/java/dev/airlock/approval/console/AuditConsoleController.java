package dev.airlock.approval.console;

import dev.airlock.approval.audit.AuditAccess;
import dev.airlock.approval.audit.AuditQueries;
import dev.airlock.approval.audit.RawAccess;
import dev.airlock.approval.audit.RunReport;
import dev.airlock.approval.audit.RunReports;
import dev.airlock.approval.audit.RunSearchForm;
import dev.airlock.approval.grant.GrantRefused;
import dev.airlock.approval.people.Human;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.ApiProblem;
import dev.airlock.persistence.artifact.GrantStatus;
import dev.airlock.persistence.audit.AuditRunSearch;
import dev.airlock.persistence.retention.LegalHolds;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The auditor's console: run search with export links, the run page with who authorized it and
 * what it returned side by side, raw-access grants, the hex dump and audit view viewers (escaped
 * text only), and legal holds for tenant administrators.
 */
@ConditionalOnSide(Side.CONSOLE)
@Controller
class AuditConsoleController {

    private final AuditAccess access;
    private final AuditQueries queries;
    private final RunReports reports;
    private final RawAccess raw;
    private final LegalHolds holds;
    private final dev.airlock.approval.input.HumanText text;
    private final Clock clock;

    AuditConsoleController(
            AuditAccess access,
            AuditQueries queries,
            RunReports reports,
            RawAccess raw,
            LegalHolds holds,
            dev.airlock.approval.input.HumanText text,
            Clock clock) {
        this.text = text;
        this.access = access;
        this.queries = queries;
        this.reports = reports;
        this.raw = raw;
        this.holds = holds;
        this.clock = clock;
    }

    /** The search page: the form, one page of results, and links to the next page and to exports. */
    @GetMapping("/console/audit")
    String search(
            Authentication authentication,
            RunSearchForm form,
            Model model,
            jakarta.servlet.http.HttpServletRequest request) {
        RunSearchForm.onlyItsFilters(request.getParameterMap().keySet());
        Human human = Human.of(authentication);
        Set<String> tenants = access.auditorTenants(human);
        model.addAttribute("human", human.name());
        model.addAttribute("tenants", tenants);
        String tenant = form.tenant() != null
                ? form.tenant()
                : tenants.stream().findFirst().orElse(null);
        RunSearchForm effective = form.withTenant(tenant);
        model.addAttribute("form", effective);
        if (tenant == null) {
            model.addAttribute("runs", List.of());
            return "audit-search";
        }
        AuditRunSearch.Page page = queries.page(human, effective);
        model.addAttribute("runs", page.runs());
        model.addAttribute(
                "next",
                page.next() == null
                        ? null
                        : link("/console/audit", effective, page.next().encode(), null));
        model.addAttribute("csv", link("/api/v1/audit/runs/export", effective, null, "csv"));
        model.addAttribute("jsonl", link("/api/v1/audit/runs/export", effective, null, "jsonl"));
        return "audit-search";
    }

    /** Who authorized the run and what it returned, side by side, with its raw-access grants. */
    @GetMapping("/console/audit/runs/{runId}")
    String run(Authentication authentication, @PathVariable String runId, @RequestParam String tenant, Model model) {
        Human human = Human.of(authentication);
        boolean auditor = access.auditorTenants(human).contains(tenant);
        if (!auditor && !access.isTenantAdmin(human, tenant)) {
            // Auditors and tenant administrators read every run of their tenants (the latter to hold it
            // and to decide raw-access requests from here); nobody else reads this page.
            access.requireAuditor(human, tenant);
        }
        RunReport report = reports.report(tenant, ConsoleController.parse(runId));
        model.addAttribute("human", human.name());
        model.addAttribute("report", report);
        model.addAttribute(
                "actionLines",
                report.authorization().approval() == null
                        ? List.of()
                        : report.authorization().approval().action().lines().toList());
        model.addAttribute("grants", rows(human, report.grants()));
        model.addAttribute("mayHold", access.isTenantAdmin(human, tenant));
        model.addAttribute("mayRequest", auditor);
        return "audit-run";
    }

    /**
     * A grant as the run page lists it.
     *
     * @param grant     the grant
     * @param mayUse    whether the person may open the raw bytes through it
     * @param mayDecide whether the person may decide on it
     */
    record GrantRow(RawAccess.GrantView grant, boolean mayUse, boolean mayDecide) {}

    private List<GrantRow> rows(Human human, List<RawAccess.GrantView> grants) {
        return grants.stream()
                .map(g -> new GrantRow(g, g.usableBy(human.identity()), raw.mayDecide(human, g)))
                .toList();
    }

    @PostMapping("/console/audit/runs/{runId}/raw-grants")
    String requestGrant(
            Authentication authentication,
            @PathVariable String runId,
            @RequestParam String tenant,
            @RequestParam(required = false) @Nullable String reason,
            RedirectAttributes redirect) {
        UUID id = ConsoleController.parse(runId);
        try {
            RawAccess.GrantView grant = raw.request(Human.of(authentication), tenant, id, reason);
            redirect.addFlashAttribute(
                    "message",
                    grant.status() == GrantStatus.GRANTED
                            ? "Access granted until " + grant.expiresAt() + "."
                            : "Your request is recorded; another auditor or a tenant administrator must grant it.");
        } catch (GrantRefused e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:" + runPage(tenant, id);
    }

    /** Pending and recent grants of the person's tenants. */
    @GetMapping("/console/audit/grants")
    String grants(Authentication authentication, Model model) {
        Human human = Human.of(authentication);
        model.addAttribute("human", human.name());
        model.addAttribute("grants", rows(human, raw.recent(human, 100)));
        return "audit-grants";
    }

    @PostMapping("/console/audit/grants/{grantId}/decision")
    String decide(
            Authentication authentication,
            @PathVariable String grantId,
            @RequestParam String decision,
            @RequestParam(required = false) @Nullable String reason,
            RedirectAttributes redirect) {
        Human human = Human.of(authentication);
        UUID id = ConsoleController.parse(grantId);
        if (!decision.equals("GRANT") && !decision.equals("REFUSE")) {
            // Only an exact decision counts, as in the API: anything else records nothing.
            throw dev.airlock.kernel.problem.InvalidRequest.field("decision", "decision: must be GRANT or REFUSE");
        }
        RawAccess.GrantView grant = raw.get(human, id);
        try {
            RawAccess.GrantView decided = raw.decide(human, id, decision.equals("GRANT"), reason);
            redirect.addFlashAttribute(
                    "message",
                    decided.status() == GrantStatus.GRANTED
                            ? "Access granted to " + decided.requester() + " until " + decided.expiresAt() + "."
                            : "Request refused.");
        } catch (GrantRefused e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:" + runPage(grant.tenant(), UUID.fromString(grant.runId()));
    }

    /** The hex dump viewer: one page of a stream as escaped text. */
    @GetMapping("/console/audit/grants/{grantId}/hexdump")
    String hexdump(
            Authentication authentication,
            @PathVariable String grantId,
            @RequestParam(defaultValue = "stdout") String stream,
            @RequestParam(defaultValue = "0") long offset,
            Model model) {
        Human human = Human.of(authentication);
        UUID id = ConsoleController.parse(grantId);
        RawAccess.GrantView grant = raw.get(human, id);
        RawAccess.HexPage page = raw.hexdump(human, id, stream, offset);
        viewer(
                model,
                human,
                grant,
                stream,
                "hexdump",
                page.digest(),
                page.offset(),
                page.length(),
                page.streamBytes(),
                page.previousOffset(),
                page.nextOffset());
        model.addAttribute("lines", page.lines().stream().map(Object::toString).toList());
        return "audit-viewer";
    }

    /** The audit view viewer: one page of a stream in the strict audit view notation. */
    @GetMapping("/console/audit/grants/{grantId}/audit-view")
    String auditView(
            Authentication authentication,
            @PathVariable String grantId,
            @RequestParam(defaultValue = "stdout") String stream,
            @RequestParam(defaultValue = "0") long offset,
            Model model) {
        Human human = Human.of(authentication);
        UUID id = ConsoleController.parse(grantId);
        RawAccess.GrantView grant = raw.get(human, id);
        RawAccess.TextPage page = raw.auditView(human, id, stream, offset);
        viewer(
                model,
                human,
                grant,
                stream,
                "audit-view",
                page.digest(),
                page.offset(),
                page.length(),
                page.streamBytes(),
                page.previousOffset(),
                page.nextOffset());
        model.addAttribute("lines", page.text().lines().toList());
        return "audit-viewer";
    }

    private void viewer(
            Model model,
            Human human,
            RawAccess.GrantView grant,
            String stream,
            String mode,
            RawAccess.Digest digest,
            long offset,
            int length,
            long streamBytes,
            @Nullable Long previous,
            @Nullable Long next) {
        String base = "/console/audit/grants/" + grant.id() + "/" + mode + "?stream=" + stream + "&offset=";
        model.addAttribute("human", human.name());
        model.addAttribute("grant", grant);
        model.addAttribute("stream", stream);
        model.addAttribute("mode", mode);
        model.addAttribute("digest", digest);
        model.addAttribute(
                "range",
                streamBytes == 0
                        ? "The stream is empty."
                        : "Bytes " + offset + " to " + (offset + length - 1) + " of " + streamBytes + ".");
        model.addAttribute("previous", previous == null ? null : base + previous);
        model.addAttribute("next", next == null ? null : base + next);
        model.addAttribute("runPage", runPage(grant.tenant(), UUID.fromString(grant.runId())));
        model.addAttribute(
                "other",
                "/console/audit/grants/" + grant.id() + "/" + (mode.equals("hexdump") ? "audit-view" : "hexdump")
                        + "?stream=" + stream + "&offset=" + offset);
    }

    @PostMapping("/console/audit/runs/{runId}/legal-hold")
    String hold(
            Authentication authentication,
            @PathVariable String runId,
            @RequestParam String tenant,
            @RequestParam String action,
            @RequestParam(required = false) @Nullable String reason,
            RedirectAttributes redirect) {
        Human human = Human.of(authentication);
        access.requireTenantAdmin(human, tenant);
        UUID id = ConsoleController.parse(runId);
        if (!action.equals("place") && !action.equals("release")) {
            throw dev.airlock.kernel.problem.InvalidRequest.field("action", "action: must be place or release");
        }
        try {
            text.check("reason", reason);
            if (action.equals("release")) {
                boolean released = holds.release(tenant, id, reason, human.name(), clock.instant());
                redirect.addFlashAttribute(
                        released ? "message" : "error",
                        released ? "Legal hold released." : "This run has no legal hold to release.");
            } else {
                holds.place(tenant, id, reason, human.name(), clock.instant());
                redirect.addFlashAttribute(
                        "message", "Legal hold placed: nothing of this run is purged while it holds.");
            }
        } catch (IllegalArgumentException | java.util.NoSuchElementException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:" + runPage(tenant, id);
    }

    @ExceptionHandler(ApiProblem.class)
    String problem(ApiProblem problem, Model model, jakarta.servlet.http.HttpServletResponse response) {
        response.setStatus(problem.status());
        model.addAttribute("title", problem.status() == 404 ? "Not found" : "Not available");
        model.addAttribute("message", problem.getMessage());
        return "audit-error";
    }

    @ExceptionHandler(GrantRefused.class)
    String refused(GrantRefused refused, Model model, jakarta.servlet.http.HttpServletResponse response) {
        response.setStatus(refused.reason() == GrantRefused.Reason.NOT_FOUND ? 404 : 403);
        model.addAttribute("title", "Raw access refused");
        model.addAttribute("message", refused.getMessage());
        return "audit-error";
    }

    private static String runPage(String tenant, UUID runId) {
        return UriComponentsBuilder.fromPath("/console/audit/runs/{id}")
                .queryParam("tenant", tenant)
                .buildAndExpand(runId)
                .encode()
                .toUriString();
    }

    private static String link(String path, RunSearchForm f, @Nullable String cursor, @Nullable String format) {
        UriComponentsBuilder b = UriComponentsBuilder.fromPath(path);
        param(b, "tenant", f.tenant());
        param(b, "from", f.from());
        param(b, "to", f.to());
        param(b, "agent", f.agent());
        param(b, "tool", f.tool());
        param(b, "state", f.state());
        param(b, "approver", f.approver());
        param(b, "decision", f.decision());
        param(b, "exitCode", f.exitCode() == null ? null : f.exitCode().toString());
        param(b, "termination", f.termination());
        param(b, "q", f.q());
        param(b, "sort", f.sort());
        param(b, "limit", f.limit() == null ? null : f.limit().toString());
        param(b, "cursor", cursor);
        param(b, "format", format);
        return b.encode().build().toUriString();
    }

    private static void param(UriComponentsBuilder b, String name, @Nullable String value) {
        if (value != null && !value.isBlank()) {
            b.queryParam(name, value);
        }
    }
}
