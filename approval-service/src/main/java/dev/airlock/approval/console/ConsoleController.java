package dev.airlock.approval.console;

import dev.airlock.approval.audit.AuditAccess;
import dev.airlock.approval.input.HumanText;
import dev.airlock.approval.people.Human;
import dev.airlock.approval.people.Role;
import dev.airlock.approval.request.ApprovalService;
import dev.airlock.approval.request.ApprovalView;
import dev.airlock.approval.request.Approver;
import dev.airlock.approval.request.DecisionRefused;
import dev.airlock.approval.request.NotAnApprover;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.approval.Verdict;
import dev.airlock.persistence.envelope.Envelope;
import dev.airlock.persistence.envelope.RunViews;
import dev.airlock.persistence.run.RunRecord;
import dev.airlock.persistence.run.RunRepository;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** The console pages: sign-in, the approval queue and the run page. */
@ConditionalOnSide(Side.CONSOLE)
@Controller
class ConsoleController {

    private final ApprovalService approvals;
    private final RunRepository runs;
    private final DecisionContext context;
    private final RunViews views;
    private final Clock clock;
    private final AuditAccess access;
    private final java.util.List<Provider> providers;

    /**
     * An OpenID Connect provider offered on the sign-in page.
     *
     * @param id   the registration id
     * @param name its display name
     */
    record Provider(String id, String name) {}

    ConsoleController(
            ApprovalService approvals,
            RunRepository runs,
            RunViews views,
            Clock clock,
            AuditAccess access,
            DecisionContext context,
            org.springframework.beans.factory.ObjectProvider<
                            org.springframework.security.oauth2.client.registration
                                    .InMemoryClientRegistrationRepository>
                    oidc) {
        this.providers = new java.util.ArrayList<>();
        oidc.ifAvailable(repository ->
                repository.forEach(r -> providers.add(new Provider(r.getRegistrationId(), r.getClientName()))));
        this.approvals = approvals;
        this.runs = runs;
        this.views = views;
        this.clock = clock;
        this.access = access;
        this.context = context;
    }

    @GetMapping("/login")
    String login(Model model) {
        model.addAttribute("providers", providers);
        return "login";
    }

    @GetMapping("/")
    String home() {
        return "redirect:/console";
    }

    /**
     * The queue: first the requests waiting for the signed-in person (those they may decide, the
     * one that expires first first), then the other pending requests of their tenants, both
     * filtered by tenant, tool and agent. It does not reload itself (WCAG 2.2.1): its Refresh
     * button asks again, and it says when it was read.
     */
    @GetMapping("/console")
    String queue(
            Authentication authentication,
            @RequestParam(required = false) @Nullable String tenant,
            @RequestParam(required = false) @Nullable String tool,
            @RequestParam(required = false) @Nullable String agent,
            Model model) {
        Human human = Human.of(authentication);
        // The filters narrow the queries themselves, so that a page of requests is a page of matching ones.
        String oneTenant = given(tenant);
        java.util.function.UnaryOperator<java.util.Set<String>> chosen =
                tenants -> oneTenant == null ? tenants : tenants.contains(oneTenant) ? Set.of(oneTenant) : Set.of();
        java.util.Set<String> approverTenants = chosen.apply(human.tenants(Role.APPROVER));
        ApprovalService.Waiting waiting =
                approvals.waitingFor(human.name(), human.identity(), approverTenants, given(tool), given(agent));
        ApprovalService.Page newest = approvals.list(
                chosen.apply(human.tenants()), true, given(tool), given(agent), null, ApprovalService.WAITING_PAGE);
        // Not only those listed above: past the first page of "waiting for you", one of the newest
        // may wait for the person too, and it does not belong among the others either.
        java.util.Set<UUID> mine = approvals.waitingAmong(
                human.name(),
                human.identity(),
                approverTenants,
                newest.requests().stream().map(ApprovalView.Request::runId).toList());
        List<ApprovalView.Request> others = newest.requests().stream()
                .filter(r -> !mine.contains(r.runId()))
                .toList();
        model.addAttribute("human", human.name());
        model.addAttribute(
                "waiting", waiting.requests().stream().map(this::item).toList());
        model.addAttribute("waitingMore", waiting.more());
        model.addAttribute("pending", others.stream().map(this::item).toList());
        model.addAttribute("pendingMore", newest.next() != null);
        model.addAttribute("pendingShown", ApprovalService.WAITING_PAGE);
        model.addAttribute("tenants", new java.util.TreeSet<>(human.tenants()));
        model.addAttribute("filterTenant", tenant == null ? "" : tenant);
        model.addAttribute("filterTool", tool == null ? "" : tool);
        model.addAttribute("filterAgent", agent == null ? "" : agent);
        model.addAttribute(
                "updatedAt",
                java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'")
                        .withZone(java.time.ZoneOffset.UTC)
                        .format(clock.instant()));
        return "queue";
    }

    /** The filter as given, stripped; null when none is. */
    private static @Nullable String given(@Nullable String filter) {
        return filter == null || filter.isBlank() ? null : filter.strip();
    }

    private QueueItem item(ApprovalView.Request r) {
        return new QueueItem(
                r.runId().toString(),
                r.tenant(),
                r.tool(),
                r.agent(),
                Ages.describe(Duration.between(r.createdAt(), clock.instant())),
                Ages.describe(Duration.between(clock.instant(), r.expiresAt())),
                r.approversRequired());
    }

    /**
     * @param runId     the run
     * @param tenant    its tenant
     * @param tool      the tool
     * @param agent     the requesting agent
     * @param age       how long ago it was requested
     * @param expiresIn how long until it expires
     * @param approvers approvals needed
     */
    record QueueItem(
            String runId, String tenant, String tool, String agent, String age, String expiresIn, int approvers) {}

    @GetMapping("/console/runs/{runId}")
    String run(Authentication authentication, @PathVariable String runId, Model model) {
        Human human = Human.of(authentication);
        UUID id = parse(runId);
        RunRecord run = runs.findByIdAndTenantIn(id, human.tenants())
                .filter(r -> access.maySeeRun(human, r.tenant(), r.approvalRequired()))
                .orElseThrow(() -> RunNotFound.forId(id));
        Optional<ApprovalView> approval = approvals.find(id, human.tenants());
        Envelope envelope = views.envelope(run);
        boolean mayDecide = approval.isPresent()
                && approval.get().request().status() == ApprovalStatus.PENDING
                && human.tenants(Role.APPROVER).contains(run.tenant())
                && dev.airlock.approval.request.FourEyes.isSecondPerson(
                        human.name(), approval.get().request().requester())
                && approval.get().decisions().stream().noneMatch(d -> d.isBy(human.name(), human.identity()));
        model.addAttribute("human", human.name());
        model.addAttribute("run", envelope);
        model.addAttribute("approval", approval.orElse(null));
        model.addAttribute(
                "actionLines", approval.map(a -> a.request().actionLines()).orElse(null));
        model.addAttribute("mayDecide", mayDecide);
        DecisionContext.ToolDescription description = context.description(run).orElse(null);
        model.addAttribute("toolDescription", description == null ? null : description.text());
        model.addAttribute("toolDescriptionServer", description == null ? null : description.server());
        model.addAttribute(
                "recentRuns", context.recent(run, r -> access.maySeeRun(human, r.tenant(), r.approvalRequired())));
        model.addAttribute("sinceApproved", context.sinceLastApproved(run).orElse(null));
        return "run";
    }

    @PostMapping("/console/runs/{runId}/decisions")
    String decide(
            Authentication authentication,
            @PathVariable String runId,
            @RequestParam(required = false) @Nullable String decision,
            @RequestParam(required = false) @Nullable String reason,
            @RequestParam(required = false) @Nullable String digest,
            RedirectAttributes redirect) {
        UUID id = parse(runId);
        Verdict verdict = Verdict.parse(decision).orElse(null);
        if (verdict == null) {
            redirect.addFlashAttribute("error", "Nothing was recorded: the decision must be exactly Approve or Deny.");
            return "redirect:/console/runs/" + id;
        }
        try {
            approvals.decide(Approver.of(Human.of(authentication)), id, verdict, reason, digest);
            redirect.addFlashAttribute(
                    "message", verdict == Verdict.APPROVE ? "Your approval is recorded." : "Your denial is recorded.");
        } catch (DecisionRefused | HumanText.Refused e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/console/runs/" + id;
    }

    @ExceptionHandler({RunNotFound.class, NotAnApprover.class})
    @ResponseStatus(org.springframework.http.HttpStatus.NOT_FOUND)
    String notFound(Model model) {
        model.addAttribute("message", "No such run in your tenants.");
        return "not-found";
    }

    /** A run or grant id from a console URL; 404 page when it is not one. */
    static UUID parse(String id) {
        try {
            return RunNotFound.parseId(id);
        } catch (RunNotFound e) {
            throw RunNotFound.forText("?");
        }
    }
}
