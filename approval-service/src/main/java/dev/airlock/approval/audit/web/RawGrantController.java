package dev.airlock.approval.audit.web;

import dev.airlock.approval.audit.RawAccess;
import dev.airlock.approval.people.Human;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.InvalidRequest;
import java.util.List;
import java.util.UUID;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Grants to raw artifacts: an auditor asks with a reason, a second person decides when the
 * tenant's policy says so, and the requester reads the bytes as a hex dump, in the strict audit
 * view or as a download, until the grant expires. Each step is an audit event.
 */
@ConditionalOnSide(Side.CONSOLE)
@RestController
@RequestMapping("/api/v1/audit")
class RawGrantController {

    private final RawAccess raw;

    RawGrantController(RawAccess raw) {
        this.raw = raw;
    }

    /**
     * A request for access.
     *
     * @param reason why the raw bytes are needed
     */
    record GrantRequest(String reason) {}

    /**
     * A decision on someone else's request.
     *
     * @param decision GRANT or REFUSE
     * @param reason   why (optional)
     */
    record GrantDecision(String decision, String reason) {}

    @PostMapping("/runs/{runId}/raw-grants")
    ResponseEntity<RawAccess.GrantView> request(
            Authentication authentication,
            @RequestParam String tenant,
            @PathVariable UUID runId,
            @RequestBody GrantRequest request) {
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(raw.request(Human.of(authentication), tenant, runId, request.reason()));
    }

    @GetMapping("/raw-grants")
    List<RawAccess.GrantView> recent(Authentication authentication, @RequestParam(defaultValue = "50") int limit) {
        if (limit < 1 || limit > 500) {
            throw InvalidRequest.field("limit", "limit must be between 1 and 500");
        }
        return raw.recent(Human.of(authentication), limit);
    }

    @GetMapping("/raw-grants/{grantId}")
    RawAccess.GrantView grant(Authentication authentication, @PathVariable UUID grantId) {
        return raw.get(Human.of(authentication), grantId);
    }

    @PostMapping("/raw-grants/{grantId}/decision")
    RawAccess.GrantView decide(
            Authentication authentication, @PathVariable UUID grantId, @RequestBody GrantDecision decision) {
        boolean grant = switch (decision.decision() == null ? "" : decision.decision()) {
            case "GRANT" -> true;
            case "REFUSE" -> false;
            default -> throw InvalidRequest.field("decision", "decision must be GRANT or REFUSE");
        };
        return raw.decide(Human.of(authentication), grantId, grant, decision.reason());
    }

    @GetMapping("/raw-grants/{grantId}/hexdump")
    RawAccess.HexPage hexdump(
            Authentication authentication,
            @PathVariable UUID grantId,
            @RequestParam(defaultValue = "stdout") String stream,
            @RequestParam(defaultValue = "0") long offset) {
        return raw.hexdump(Human.of(authentication), grantId, stream, offset);
    }

    @GetMapping("/raw-grants/{grantId}/audit-view")
    RawAccess.TextPage auditView(
            Authentication authentication,
            @PathVariable UUID grantId,
            @RequestParam(defaultValue = "stdout") String stream,
            @RequestParam(defaultValue = "0") long offset) {
        return raw.auditView(Human.of(authentication), grantId, stream, offset);
    }

    /** The stream's raw bytes as an attachment that no browser renders or sniffs. */
    @GetMapping("/raw-grants/{grantId}/download")
    ResponseEntity<byte[]> download(
            Authentication authentication,
            @PathVariable UUID grantId,
            @RequestParam(defaultValue = "stdout") String stream) {
        RawAccess.Download download = raw.download(Human.of(authentication), grantId, stream);
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_OCTET_STREAM)
                .header(
                        HttpHeaders.CONTENT_DISPOSITION,
                        ContentDisposition.attachment()
                                .filename(download.filename())
                                .build()
                                .toString())
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Airlock-Artifact-Sha256-Recorded", download.digest().recorded())
                .header("X-Airlock-Artifact-Sha256-Actual", download.digest().actual())
                .header(
                        "X-Airlock-Digest-Matches",
                        Boolean.toString(download.digest().matches()))
                .body(download.bytes());
    }
}
