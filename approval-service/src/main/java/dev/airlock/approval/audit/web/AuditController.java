package dev.airlock.approval.audit.web;

import dev.airlock.approval.audit.AuditAccess;
import dev.airlock.approval.audit.AuditQueries;
import dev.airlock.approval.audit.RunReport;
import dev.airlock.approval.audit.RunReports;
import dev.airlock.approval.audit.RunSearchForm;
import dev.airlock.approval.people.Human;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.audit.AuditRunSearch;
import dev.airlock.persistence.audit.RunQuery;
import dev.airlock.persistence.audit.RunSummary;
import dev.airlock.persistence.retention.LegalHolds;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The auditors' API: the audit event log, queries over runs with export, the
 * authorization-versus-output report of a run, and legal holds. For people with the AUDITOR role
 * in the tenant (TENANT_ADMIN for legal holds; platform administrators everywhere). Agents never
 * reach it.
 */
@ConditionalOnSide(Side.CONSOLE)
@RestController
@RequestMapping("/api/v1/audit")
class AuditController {

    private final AuditLog audit;
    private final AuditAccess access;
    private final AuditQueries queries;
    private final RunReports reports;
    private final LegalHolds holds;
    private final dev.airlock.approval.input.HumanText text;
    private final Clock clock;

    AuditController(
            AuditLog audit,
            AuditAccess access,
            AuditQueries queries,
            RunReports reports,
            LegalHolds holds,
            dev.airlock.approval.input.HumanText text,
            Clock clock) {
        this.text = text;
        this.audit = audit;
        this.access = access;
        this.queries = queries;
        this.reports = reports;
        this.holds = holds;
        this.clock = clock;
    }

    /** Walks the tenant's hash chain and reports the first break, if any. */
    @GetMapping("/verify")
    AuditLog.Verification verify(Authentication authentication, @RequestParam String tenant) {
        access.requireAuditor(Human.of(authentication), tenant);
        return audit.verify(tenant);
    }

    /** The events about one run of the tenant, in order. */
    @GetMapping("/runs/{runId}/events")
    List<AuditLog.AuditEvent> events(
            Authentication authentication, @RequestParam String tenant, @PathVariable UUID runId) {
        access.requireAuditor(Human.of(authentication), tenant);
        List<AuditLog.AuditEvent> events = audit.forRun(tenant, runId);
        if (events.isEmpty()) {
            throw RunNotFound.forId(runId);
        }
        return events;
    }

    /**
     * One page of the tenant's runs matching the filters.
     *
     * @param runs the runs
     * @param next the cursor of the next page, or null on the last
     */
    record RunPage(List<RunSummary> runs, @Nullable String next) {}

    /** Runs of a tenant matching the filters, newest first unless {@code sort=oldest}, a page at a time. */
    @GetMapping("/runs")
    RunPage runs(Authentication authentication, RunSearchForm form, HttpServletRequest request) {
        RunSearchForm.onlyItsFilters(request.getParameterMap().keySet());
        AuditRunSearch.Page page = queries.page(Human.of(authentication), form);
        return new RunPage(page.runs(), page.next() == null ? null : page.next().encode());
    }

    /** Every run matching the filters, streamed as {@code format=csv} or {@code format=jsonl}. */
    @GetMapping("/runs/export")
    void export(
            Authentication authentication,
            RunSearchForm form,
            @RequestParam(defaultValue = "csv") String format,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        RunSearchForm.onlyItsFilters(request.getParameterMap().keySet(), "format");
        RunQuery query = queries.query(Human.of(authentication), form);
        boolean csv = switch (format) {
            case "csv" -> true;
            case "jsonl" -> false;
            default -> throw InvalidRequest.field("format", "format must be csv or jsonl");
        };
        response.setContentType(csv ? "text/csv; charset=UTF-8" : "application/jsonl; charset=UTF-8");
        response.setHeader(
                HttpHeaders.CONTENT_DISPOSITION,
                "attachment; filename=\"airlock-runs-" + form.tenant() + (csv ? ".csv\"" : ".jsonl\""));
        response.setHeader("X-Content-Type-Options", "nosniff");
        Writer out = new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8);
        if (csv) {
            queries.exportCsv(query, out);
        } else {
            queries.exportJsonLines(query, out);
        }
    }

    /** Who authorized the run, and, apart, what it returned. */
    @GetMapping("/runs/{runId}")
    RunReport report(Authentication authentication, @RequestParam String tenant, @PathVariable UUID runId) {
        access.requireAuditor(Human.of(authentication), tenant);
        return reports.report(tenant, runId);
    }

    /**
     * A legal hold to place.
     *
     * @param reason why the run must be kept
     */
    record HoldRequest(String reason) {}

    /** Places a legal hold on a run (tenant administrators). */
    @PutMapping("/runs/{runId}/legal-hold")
    ResponseEntity<RunReport.LegalHold> placeHold(
            Authentication authentication,
            @RequestParam String tenant,
            @PathVariable UUID runId,
            @RequestBody HoldRequest request) {
        Human human = Human.of(authentication);
        access.requireTenantAdmin(human, tenant);
        text.check("reason", request.reason());
        boolean placed;
        try {
            placed = holds.place(tenant, runId, request.reason(), human.name(), clock.instant());
        } catch (java.util.NoSuchElementException e) {
            throw RunNotFound.forId(runId);
        } catch (IllegalArgumentException e) {
            throw InvalidRequest.field("reason", String.valueOf(e.getMessage()));
        }
        var hold = holds.find(tenant, runId).orElseThrow();
        return ResponseEntity.status(placed ? HttpStatus.CREATED : HttpStatus.OK)
                .body(new RunReport.LegalHold(hold.reason(), hold.placedBy(), hold.placedAt()));
    }

    /** Releases a run's legal hold (tenant administrators). */
    @DeleteMapping("/runs/{runId}/legal-hold")
    ResponseEntity<Void> releaseHold(
            Authentication authentication,
            @RequestParam String tenant,
            @PathVariable UUID runId,
            @RequestParam(required = false) @Nullable String reason) {
        Human human = Human.of(authentication);
        access.requireTenantAdmin(human, tenant);
        text.check("reason", reason);
        if (!holds.release(tenant, runId, reason, human.name(), clock.instant())) {
            throw RunNotFound.forId(runId);
        }
        return ResponseEntity.noContent().build();
    }
}
