package dev.airlock.approval.console;

import dev.airlock.approval.people.AccessTokens;
import dev.airlock.approval.people.TokenScope;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The signed-in person's access tokens for bots: list with scopes, expiry and last use, create
 * (shown once) with chosen scopes and lifetime, revoke.
 */
@ConditionalOnSide(Side.CONSOLE)
@Controller
class TokenController {

    private final AccessTokens tokens;
    private final long defaultDays;
    private final long maxDays;

    TokenController(AccessTokens tokens, dev.airlock.approval.settings.PeopleSettings properties) {
        this.tokens = tokens;
        // The form offers whole days within the configured maximum.
        this.maxDays = Math.max(1, properties.tokens().maxTtl().toDays());
        this.defaultDays =
                Math.min(maxDays, Math.max(1, properties.tokens().defaultTtl().toDays()));
    }

    @GetMapping("/console/tokens")
    String list(Authentication authentication, Model model) {
        model.addAttribute("human", authentication.getName());
        model.addAttribute("tokens", tokens.list(authentication));
        model.addAttribute(
                "scopes",
                List.of(TokenScope.values()).stream().map(TokenScope::text).toList());
        model.addAttribute("defaultDays", defaultDays);
        model.addAttribute("maxDays", maxDays);
        return "tokens";
    }

    @PostMapping("/console/tokens")
    String create(
            Authentication authentication,
            @RequestParam(required = false) @Nullable String name,
            @RequestParam(name = "scope", required = false) @Nullable List<String> scopes,
            @RequestParam(name = "days", required = false) @Nullable String days,
            RedirectAttributes redirect) {
        try {
            Set<TokenScope> chosen = EnumSet.noneOf(TokenScope.class);
            for (String scope : scopes == null ? List.<String>of() : scopes) {
                chosen.add(TokenScope.parse(scope).orElseThrow(() -> new IllegalArgumentException("Unknown scope.")));
            }
            Duration ttl = days == null || days.isBlank() ? null : Duration.ofDays(parseDays(days));
            redirect.addFlashAttribute("created", tokens.create(authentication, name, chosen, ttl));
        } catch (IllegalArgumentException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/tokens";
    }

    /** The longest lifetime read from the form; longer ones are refused before any arithmetic. */
    private static final long MAX_DAYS_ASKED = 36_500;

    private static long parseDays(String days) {
        long parsed;
        try {
            parsed = Long.parseLong(days.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The lifetime must be a whole number of days.");
        }
        if (parsed > MAX_DAYS_ASKED) {
            // Far past any lifetime the tokens allow (they refuse it with their own message), and a Duration can hold.
            throw new IllegalArgumentException(
                    "The lifetime must be a whole number of days up to " + MAX_DAYS_ASKED + ".");
        }
        return parsed;
    }

    @PostMapping("/console/tokens/{id}/revoke")
    String revoke(Authentication authentication, @PathVariable UUID id, RedirectAttributes redirect) {
        redirect.addFlashAttribute("message", tokens.revoke(authentication, id) ? "Token revoked." : "No such token.");
        return "redirect:/console/tokens";
    }
}
