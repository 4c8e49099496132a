package dev.airlock.gateway.tool.web;

import dev.airlock.gateway.tenant.AgentIdentity;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Lists the tools of the calling agent's tenant. */
@ConditionalOnSide(Side.AGENT_API)
@RestController
class ToolController {

    private final ToolCatalog tools;

    ToolController(ToolCatalog tools) {
        this.tools = tools;
    }

    /**
     * One tool as an agent sees it.
     *
     * @param name        the tool
     * @param description what it does
     * @param approval    auto, required or deny
     * @param timeout     its time limit (ISO-8601)
     * @param parameters  JSON Schema of the {@code arguments} object
     * @param annotations the hints its configuration states (readOnlyHint, destructiveHint, idempotentHint,
     *                    openWorldHint), as MCP clients get them; empty when none are stated
     */
    record ToolView(
            String name,
            @Nullable String description,
            String approval,
            String timeout,
            Map<String, Object> parameters,
            Map<String, Boolean> annotations) {}

    @GetMapping("/api/v1/tools")
    List<ToolView> tools(@AuthenticationPrincipal AgentIdentity agent) {
        return tools.tools(agent).stream()
                .map(t -> new ToolView(
                        t.name(),
                        t.description(),
                        t.policy().mode().name().toLowerCase(Locale.ROOT),
                        t.timeout().toString(),
                        t.argumentsSchema(),
                        t.annotations().stated()))
                .toList();
    }
}
