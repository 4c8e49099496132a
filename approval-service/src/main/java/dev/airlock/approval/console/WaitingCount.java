package dev.airlock.approval.console;

import dev.airlock.approval.people.Human;
import dev.airlock.approval.people.Role;
import dev.airlock.approval.request.ApprovalService;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * How many requests wait for the signed-in person, for the count beside "Approvals" in every
 * console page's navigation.
 */
@ConditionalOnSide(Side.CONSOLE)
@ControllerAdvice(
        assignableTypes = {
            ConsoleController.class,
            AuditConsoleController.class,
            TokenController.class,
            ToolChangesController.class
        })
class WaitingCount {

    private final ApprovalService approvals;

    WaitingCount(ApprovalService approvals) {
        this.approvals = approvals;
    }

    @ModelAttribute("waitingCount")
    @Nullable
    Long waitingCount(@Nullable Authentication authentication) {
        if (authentication == null
                || authentication instanceof AnonymousAuthenticationToken
                || !authentication.isAuthenticated()) {
            return null;
        }
        Human human = Human.of(authentication);
        return approvals.countWaitingFor(human.name(), human.identity(), human.tenants(Role.APPROVER));
    }
}
