package dev.airlock.approval.console;

import dev.airlock.approval.audit.AuditAccess;
import dev.airlock.approval.people.Human;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.persistence.mcp.McpToolDefinitions;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Changed and new tools of upstream MCP servers, held until a tenant administrator decides
 * (docs/mcp-upstreams.md): each shown beside the definition it was offered under before, both as
 * the server sent them (escaped text, never markup); approving lets agents use it from the
 * server's next listing, rejecting keeps it away. Each decision is an audit event.
 */
@ConditionalOnSide(Side.CONSOLE)
@Controller
class ToolChangesController {

    /** Pretty-printed, every character that is not ASCII written as a JSON escape: nothing hides. */
    private static final JsonMapper PRETTY = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(tools.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII)
            .build();

    private final McpToolDefinitions definitions;
    private final AuditAccess access;
    private final Clock clock;

    ToolChangesController(McpToolDefinitions definitions, AuditAccess access, Clock clock) {
        this.definitions = definitions;
        this.access = access;
        this.clock = clock;
    }

    /**
     * One held definition as the page shows it.
     *
     * @param definition the held definition
     * @param now        it, pretty-printed
     * @param before     the definition offered before, pretty-printed, or null for a new tool
     */
    record Change(
            McpToolDefinitions.Definition definition,
            String now,
            @org.jspecify.annotations.Nullable String before) {}

    @GetMapping("/console/tool-changes")
    String list(Authentication authentication, Model model) {
        Human human = Human.of(authentication);
        Set<String> tenants = access.adminTenants(human);
        List<Change> changes = definitions.pending(tenants).stream()
                .map(d -> new Change(
                        d,
                        pretty(d.definition()),
                        definitions
                                .previous(d.tenant(), d.server(), d.tool(), d.sha256())
                                .map(p -> pretty(p.definition()))
                                .orElse(null)))
                .toList();
        model.addAttribute("human", authentication.getName());
        model.addAttribute("changes", changes);
        model.addAttribute("administers", !tenants.isEmpty());
        return "tool-changes";
    }

    @PostMapping("/console/tool-changes/{tenant}/{server}/{tool}/{sha256}")
    String decide(
            Authentication authentication,
            @PathVariable String tenant,
            @PathVariable String server,
            @PathVariable String tool,
            @PathVariable String sha256,
            @RequestParam String decision,
            RedirectAttributes redirect) {
        Human human = Human.of(authentication);
        access.requireTenantAdmin(human, tenant);
        boolean approve = switch (decision) {
            case "approve" -> true;
            case "reject" -> false;
            default ->
                throw dev.airlock.kernel.problem.InvalidRequest.field(
                        "decision", "decision: must be approve or reject");
        };
        if (definitions.decide(tenant, server, tool, sha256, approve, human.name(), clock.instant())) {
            redirect.addFlashAttribute(
                    "message",
                    (approve ? "Approved" : "Rejected") + " tool " + tool + " of MCP server " + server + " (" + tenant
                            + ")" + (approve ? "; agents see it from the server's next listing." : "."));
        } else {
            redirect.addFlashAttribute("error", "That definition is not waiting for a decision any more.");
        }
        return "redirect:/console/tool-changes";
    }

    private static String pretty(String json) {
        try {
            return PRETTY.writeValueAsString(PRETTY.readTree(json));
        } catch (RuntimeException e) {
            return json;
        }
    }
}
