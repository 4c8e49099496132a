package dev.airlock.approval.notify;

import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.approval.settings.SecretText;
import dev.airlock.egress.CallControl;
import dev.airlock.egress.Egress;
import dev.airlock.egress.EgressRequest;
import dev.airlock.egress.EgressResult;
import dev.airlock.egress.EgressTermination;
import dev.airlock.egress.Upstream;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalRequestRepository;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.event.ApprovalClosed;
import dev.airlock.persistence.event.ApprovalOpened;
import dev.airlock.persistence.notification.NotificationDeliveries;
import dev.airlock.persistence.scope.Scopes;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tells people of approval requests where they already are (docs/approvals.md#channels): Slack,
 * Microsoft Teams and e-mail. A request goes to the channels of the tenant's approver groups whose
 * tools match it (every channel when the tenant has no groups); a reminder goes there before it
 * expires, an escalation to another group when nobody decided in time, and a follow-up when it is
 * decided, expires or is cancelled. Each message is claimed in the database before it is sent (once
 * across replicas), sent on a virtual thread with retries and backoff (a dead channel never delays
 * or loses a request, and its attempts are bounded), and recorded as sent or failed.
 */
@Component
public class ApprovalChannels implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ApprovalChannels.class);
    static final int MAX_ATTEMPTS = 5;
    /** The wait before a message's second attempt; each later one doubles. */
    static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    /** A message claimed this long ago and never recorded sent or failed was lost with its replica. */
    static final Duration STALE = Duration.ofMinutes(5);

    private static final java.util.regex.Pattern CHANNEL_NAME =
            java.util.regex.Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");
    /** Unknown groups named by policy, each logged once. */
    private static final Set<String> UNKNOWN_GROUPS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final AirlockProperties properties;
    private final PeopleSettings people;
    private final ApprovalRequestRepository requests;
    private final NotificationDeliveries deliveries;
    private final Scopes scopes;
    private final JsonMapper json;
    private final Clock clock;
    private final Egress egress;
    private final @Nullable JavaMailSender mail;
    private final Map<String, URI> webhookUrls = new LinkedHashMap<>();
    private final ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor();
    private final Retry retry;

    ApprovalChannels(
            AirlockProperties properties,
            PeopleSettings people,
            ApprovalRequestRepository requests,
            NotificationDeliveries deliveries,
            Scopes scopes,
            JsonMapper json,
            Clock clock,
            Egress egress,
            ObjectProvider<JavaMailSender> mailSenders) {
        JavaMailSender mail = mailSenders.getIfAvailable();
        Function<String, Optional<String>> environment = name -> Optional.ofNullable(System.getenv(name));
        this.properties = properties;
        this.people = people;
        this.requests = requests;
        this.deliveries = deliveries;
        this.scopes = scopes;
        this.json = json;
        this.clock = clock;
        this.egress = egress;
        this.mail = mail;
        if (mail instanceof org.springframework.mail.javamail.JavaMailSenderImpl smtp) {
            // A stalled SMTP server must not hold a delivery for ever, and the password and the message
            // go encrypted when the server offers STARTTLS; spring.mail.properties.* overrides either.
            java.util.Properties props = smtp.getJavaMailProperties();
            for (String timeout :
                    List.of("mail.smtp.connectiontimeout", "mail.smtp.timeout", "mail.smtp.writetimeout")) {
                props.putIfAbsent(timeout, "10000");
            }
            props.putIfAbsent("mail.smtp.starttls.enable", "true");
        }
        this.retry = Retry.of(
                "approval-channels",
                RetryConfig.custom()
                        .maxAttempts(MAX_ATTEMPTS)
                        .intervalFunction(IntervalFunction.ofExponentialBackoff(FIRST_BACKOFF, 2.0))
                        .retryExceptions(IOException.class, RuntimeException.class)
                        .ignoreExceptions(DeliveryRefused.class)
                        .build());
        people.tenants().forEach((tenant, settings) -> check(tenant, settings.notifications(), environment));
    }

    /** Every channel and group of the tenant is usable, or the start stops naming the key. */
    private void check(
            String tenant, PeopleSettings.Notifications settings, Function<String, Optional<String>> environment) {
        String key = "airlock.tenants." + tenant + ".notifications";
        settings.channels().forEach((name, channel) -> {
            String channelKey = key + ".channels." + name;
            if (!CHANNEL_NAME.matcher(name).matches()) {
                throw new InvalidConfigurationException(channelKey, "channel names use a-z, 0-9, '_' and '-'");
            }
            if (channel.type() == null) {
                throw new InvalidConfigurationException(channelKey + ".type", "must be slack, teams or email");
            }
            switch (channel.type()) {
                case SLACK, TEAMS -> {
                    if (channel.url() == null) {
                        throw new InvalidConfigurationException(
                                channelKey + ".url", "must say where the webhook URL is (env:NAME or file:/path)");
                    }
                    String url = SecretText.read(channel.url(), channelKey + ".url", environment)
                            .strip();
                    URI uri;
                    try {
                        uri = URI.create(url);
                    } catch (IllegalArgumentException e) {
                        throw new InvalidConfigurationException(channelKey + ".url", "does not hold a URL");
                    }
                    // The URL is a credential: only https carries it, except to a receiver on a private
                    // network the tenant allows (a local relay, tests).
                    boolean https = "https".equals(uri.getScheme());
                    boolean plainAllowed = "http".equals(uri.getScheme()) && settings.allowPrivateNetwork();
                    if (!(https || plainAllowed) || uri.getHost() == null) {
                        throw new InvalidConfigurationException(
                                channelKey + ".url",
                                "does not hold an https URL (http only with allow-private-network)");
                    }

                    if (!channel.to().isEmpty()) {
                        throw new InvalidConfigurationException(
                                channelKey + ".to", "only an e-mail channel has addresses");
                    }
                    webhookUrls.put(tenant + "/" + name, uri);
                }
                case EMAIL -> {
                    if (channel.to().isEmpty()) {
                        throw new InvalidConfigurationException(channelKey + ".to", "must name at least one address");
                    }
                    for (String address : channel.to()) {
                        if (!address.matches("[^\\s@<>,;\"]+@[^\\s@<>,;\"]+")) {
                            throw new InvalidConfigurationException(
                                    channelKey + ".to", address + " is no e-mail address");
                        }
                    }
                    if (channel.url() != null) {
                        throw new InvalidConfigurationException(channelKey + ".url", "an e-mail channel has no URL");
                    }
                    if (mail == null) {
                        throw new InvalidConfigurationException(
                                channelKey,
                                "e-mail needs an SMTP server: set spring.mail.host (docs/approvals.md#channels)");
                    }
                }
            }
        });
        settings.approverGroups().forEach((group, config) -> {
            if (config.channels().isEmpty()) {
                throw new InvalidConfigurationException(
                        key + ".approver-groups." + group + ".channels", "must name a channel");
            }
            for (String channel : config.channels()) {
                if (!settings.channels().containsKey(channel)) {
                    throw new InvalidConfigurationException(
                            key + ".approver-groups." + group + ".channels",
                            channel + " is no channel of " + key + ".channels");
                }
            }
        });
        if (settings.escalateAfter() != null
                && (settings.escalateTo() == null || !settings.approverGroups().containsKey(settings.escalateTo()))) {
            throw new InvalidConfigurationException(
                    key + ".escalate-to", "must name an approver group when escalate-after is set");
        }
        if (settings.escalateTo() != null && settings.escalateAfter() == null) {
            throw new InvalidConfigurationException(key + ".escalate-after", "must be set when escalate-to is");
        }
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    void opened(ApprovalOpened opened) {
        announce(opened.tenant(), opened.runId(), "approval.requested", null);
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
    void closed(ApprovalClosed closed) {
        announce(closed.tenant(), closed.runId(), "approval.decided", closed.status());
    }

    /** Sends {@code event} about the request of {@code runId} to the channels its tool's groups listen on. */
    private void announce(String tenant, UUID runId, String event, @Nullable ApprovalStatus outcome) {
        PeopleSettings.Notifications settings = people.tenant(tenant).notifications();
        if (settings.channels().isEmpty()) {
            return;
        }
        // On a thread of its own: the committed transaction's resources are still bound to this one, and a
        // read here would run outside any scope's role.
        senders.execute(() -> {
            try {
                scopes.eitherSide(List.of(tenant))
                        .run(() -> requests.findByRunIdAndTenantIn(runId, List.of(tenant))
                                .ifPresent(request -> {
                                    Set<String> channels = event.equals("approval.decided")
                                            ? toldOf(runId, routed(settings, request))
                                            : routed(settings, request);
                                    send(request, event, outcome, channels);
                                }));
            } catch (RuntimeException e) {
                log.error("Could not announce {} of run {} to the tenant's channels", event, runId, e);
            }
        });
    }

    /**
     * Reminds the groups of pending requests about to expire, and escalates those nobody decided in
     * time; each at most once per request and channel across replicas.
     */
    public void remindAndEscalate() {
        Instant now = clock.instant();
        people.tenants().forEach((tenant, tenantSettings) -> {
            PeopleSettings.Notifications settings = tenantSettings.notifications();
            if (settings.channels().isEmpty()) {
                return;
            }
            Duration remindBefore = settings.remindBefore();
            if (remindBefore != null) {
                for (UUID runId : deliveries.remindersDue(tenant, now.plus(remindBefore))) {
                    requests.findByRunIdAndTenantIn(runId, List.of(tenant))
                            .ifPresent(r -> send(r, "approval.reminder", null, routed(settings, r)));
                }
            }
            Duration escalateAfter = settings.escalateAfter();
            PeopleSettings.ApproverGroup group = settings.escalateTo() == null
                    ? null
                    : settings.approverGroups().get(settings.escalateTo());
            if (escalateAfter != null && group != null) {
                for (UUID runId : deliveries.escalationsDue(tenant, now.minus(escalateAfter))) {
                    requests.findByRunIdAndTenantIn(runId, List.of(tenant))
                            .ifPresent(r -> send(r, "approval.escalated", null, new LinkedHashSet<>(group.channels())));
                }
            }
        });
        resendStale(now);
    }

    /** Messages a stopped replica claimed but never sent: claimed again and sent from here. */
    private void resendStale(Instant now) {
        for (NotificationDeliveries.Delivery stale :
                deliveries.reclaimStale(people.tenants().keySet(), now.minus(STALE), now)) {
            PeopleSettings.Notifications settings =
                    people.tenant(stale.tenant()).notifications();
            PeopleSettings.Channel channel = settings.channels().get(stale.channel());
            if (channel == null) {
                continue;
            }
            requests.findByRunIdAndTenantIn(stale.runId(), List.of(stale.tenant()))
                    .ifPresent(request -> {
                        if (closedBefore(stale.event(), request)) {
                            // "Waits for approval" about a request that is closed by now would mislead.
                            deliveries.record(
                                    stale.id(),
                                    NotificationDeliveries.Status.FAILED,
                                    stale.attempts(),
                                    "not sent again: the request is " + request.status() + " by now",
                                    now);
                            return;
                        }
                        ApprovalMessage message = message(
                                request,
                                stale.event(),
                                request.status() == ApprovalStatus.PENDING ? null : request.status());
                        log.info(
                                "Sending again the {} of run {} on channel {}: its sender stopped",
                                stale.event(),
                                stale.runId(),
                                stale.channel());
                        senders.execute(() -> deliver(
                                stale.tenant(),
                                stale.id(),
                                stale.channel(),
                                channel,
                                message,
                                settings.allowPrivateNetwork()));
                    });
        }
    }

    /**
     * The channels a request goes to: those of the group its tool or deciding rule names, if the
     * tenant has that group; else those of the groups whose tools match its tool; every channel
     * when the tenant has no groups.
     */
    static Set<String> routed(PeopleSettings.Notifications settings, ApprovalRequest request) {
        String named = request.notifyGroup();
        if (named != null) {
            PeopleSettings.ApproverGroup group = settings.approverGroups().get(named);
            if (group != null) {
                return new LinkedHashSet<>(group.channels());
            }
            if (UNKNOWN_GROUPS.add(request.tenant() + "/" + named)) {
                log.warn(
                        "Policy names approver group {}, which tenant {} does not have; its requests are routed by tool",
                        named,
                        request.tenant());
            }
        }
        return routed(settings, request.tool());
    }

    /** The channels of the groups told of {@code tool}'s requests; every channel when the tenant has no groups. */
    static Set<String> routed(PeopleSettings.Notifications settings, String tool) {
        if (settings.approverGroups().isEmpty()) {
            return new LinkedHashSet<>(settings.channels().keySet());
        }
        Set<String> channels = new LinkedHashSet<>();
        settings.approverGroups().forEach((name, group) -> {
            if (group.tools().stream().anyMatch(glob -> dev.airlock.kernel.config.Globs.matches(glob, tool))) {
                channels.addAll(group.channels());
            }
        });
        return channels;
    }

    /** Of {@code channels}, those that were told of the request (a follow-up goes where the request went). */
    private Set<String> toldOf(UUID runId, Set<String> channels) {
        Set<String> told = new LinkedHashSet<>();
        deliveries.of(runId).stream()
                .filter(d -> !d.event().equals("approval.decided"))
                .forEach(d -> told.add(d.channel()));
        return told.isEmpty() ? channels : told;
    }

    /** Whether {@code event}, which tells of a request waiting, would come after {@code request} closed. */
    private static boolean closedBefore(String event, ApprovalRequest request) {
        return !event.equals("approval.decided") && request.status() != ApprovalStatus.PENDING;
    }

    private void send(ApprovalRequest request, String event, @Nullable ApprovalStatus outcome, Set<String> channels) {
        if (channels.isEmpty()) {
            return;
        }
        if (closedBefore(event, request)) {
            // Read after the request closed (a run cancelled at once): "waits for approval" would mislead.
            log.info("Not announcing the {} of run {}: its request is {}", event, request.runId(), request.status());
            return;
        }
        ApprovalMessage message = message(request, event, outcome);
        PeopleSettings.Notifications settings = people.tenant(request.tenant()).notifications();
        for (String name : channels) {
            PeopleSettings.Channel channel = settings.channels().get(name);
            if (channel == null) {
                continue;
            }
            Optional<Long> claimed = deliveries.claim(request.tenant(), request.runId(), name, event, clock.instant());
            if (claimed.isEmpty()) {
                continue;
            }
            long id = claimed.get();
            String tenant = request.tenant();
            senders.execute(() -> deliver(tenant, id, name, channel, message, settings.allowPrivateNetwork()));
        }
    }

    private void deliver(
            String tenant,
            long id,
            String name,
            PeopleSettings.Channel channel,
            ApprovalMessage message,
            boolean allowPrivateNetwork) {
        AtomicInteger attempts = new AtomicInteger();
        String error = null;
        try {
            Retry.decorateCheckedRunnable(retry, () -> {
                        attempts.incrementAndGet();
                        deliverOnce(tenant, name, channel, message, allowPrivateNetwork);
                    })
                    .run();
        } catch (Throwable e) {
            error = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            log.warn(
                    "Channel {} of tenant {} did not take {} of run {} after {} attempt(s): {}",
                    name,
                    tenant,
                    message.event(),
                    message.runId(),
                    attempts.get(),
                    error);
        }
        String failure = error;
        try {
            scopes.eitherSide(List.of(tenant))
                    .run(() -> deliveries.record(
                            id,
                            failure == null ? NotificationDeliveries.Status.SENT : NotificationDeliveries.Status.FAILED,
                            attempts.get(),
                            failure,
                            clock.instant()));
        } catch (RuntimeException e) {
            log.error("Could not record the delivery {} of run {}", id, message.runId(), e);
        }
    }

    private void deliverOnce(
            String tenant, String name, PeopleSettings.Channel channel, ApprovalMessage message, boolean allowPrivate)
            throws Exception {
        switch (channel.type()) {
            case SLACK -> post(tenant, name, json.writeValueAsString(ChannelFormats.slack(message)), allowPrivate);
            case TEAMS -> post(tenant, name, json.writeValueAsString(ChannelFormats.teams(message)), allowPrivate);
            case EMAIL -> email(channel, message);
        }
    }

    private void post(String tenant, String name, String body, boolean allowPrivate) throws IOException {
        URI url = webhookUrls.get(tenant + "/" + name);
        if (url == null) {
            throw new IOException("channel " + name + " has no URL");
        }
        Upstream receiver =
                egress.upstream("channel/" + tenant + "/" + name, ApprovalWebhooks.receiverPolicy(allowPrivate));
        EgressResult result = receiver.call(
                new EgressRequest(
                        "POST", url, List.of(), body.getBytes(StandardCharsets.UTF_8), "application/json", false),
                (status, type, in) -> in.transferTo(OutputStream.nullOutputStream()),
                CallControl.NONE,
                Duration.ofSeconds(10));
        if (result.termination() == EgressTermination.REFUSED) {
            // The URL holds a credential: the reason names the outcome, never the URL (nor the refusal's, which
            // could name a redirect's).
            throw new DeliveryRefused(result.status() == null ? "REFUSED" : "REFUSED (HTTP " + result.status() + ")");
        }
        if (result.termination() != EgressTermination.RESPONDED
                || result.status() == null
                || result.status() / 100 != 2) {
            // The URL holds a credential: the reason names the outcome, never the URL.
            throw new IOException(result.status() == null ? result.termination().name() : "HTTP " + result.status());
        }
    }

    private void email(PeopleSettings.Channel channel, ApprovalMessage message) throws Exception {
        JavaMailSender sender = mail;
        if (sender == null) {
            throw new IOException("no SMTP server is configured");
        }
        MimeMessage mime = sender.createMimeMessage();
        MimeMessageHelper helper = new MimeMessageHelper(mime, true, StandardCharsets.UTF_8.name());
        helper.setTo(channel.to().toArray(String[]::new));
        String from = properties.console().baseUrl();
        helper.setFrom(
                "airlock@" + Optional.ofNullable(URI.create(from).getHost()).orElse("localhost"));
        helper.setSubject(ChannelFormats.subject(message));
        helper.setText(ChannelFormats.text(message), ChannelFormats.html(message));
        sender.send(mime);
    }

    private ApprovalMessage message(ApprovalRequest request, String event, @Nullable ApprovalStatus outcome) {
        List<String> lines = request.action().lines().toList();
        List<String> shown = new ArrayList<>(lines.subList(0, Math.min(lines.size(), ApprovalMessage.MAX_LINES)));
        return new ApprovalMessage(
                event,
                request.runId().toString(),
                request.tenant(),
                request.tool(),
                request.agent(),
                shown,
                lines.size() - shown.size(),
                request.policyRule(),
                request.expiresAt(),
                outcome == null ? null : outcome.name(),
                properties.console().baseUrl().replaceAll("/+$", "") + "/console/runs/" + request.runId());
    }

    @Override
    public void destroy() {
        senders.shutdown();
    }
}
