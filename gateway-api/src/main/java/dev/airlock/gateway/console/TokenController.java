package dev.airlock.gateway.console;

import dev.airlock.gateway.human.AccessTokens;
import java.util.UUID;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** The signed-in person's access tokens for bots: list with last use, create (shown once), revoke. */
@Controller
class TokenController {

    private final AccessTokens tokens;

    TokenController(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @GetMapping("/console/tokens")
    String list(Authentication authentication, Model model) {
        model.addAttribute("human", authentication.getName());
        model.addAttribute("tokens", tokens.list(authentication.getName()));
        return "tokens";
    }

    @PostMapping("/console/tokens")
    String create(Authentication authentication, @RequestParam(required = false) String name, RedirectAttributes redirect) {
        AccessTokens.Created created = tokens.create(authentication.getName(), name);
        redirect.addFlashAttribute("created", created);
        return "redirect:/console/tokens";
    }

    @PostMapping("/console/tokens/{id}/revoke")
    String revoke(Authentication authentication, @PathVariable UUID id, RedirectAttributes redirect) {
        redirect.addFlashAttribute("message", tokens.revoke(authentication.getName(), id) ? "Token revoked." : "No such token.");
        return "redirect:/console/tokens";
    }
}
