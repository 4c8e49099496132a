package dev.airlock.approval.settings;

import dev.airlock.kernel.config.InvalidConfigurationException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The people's side's settings under {@code airlock.*}: people and their roles, sign-in through
 * OpenID Connect, sign-in throttling, personal access tokens, approvals, the audit command, the
 * retention purge, and each tenant's retention, raw access and notifications. Bound from the same
 * keys as the settings both sides read ({@code AirlockProperties}); a key that none of them knows
 * stops the start.
 *
 * @param users     people who sign in with a password, by user name
 * @param oidc      sign-in through an OpenID Connect provider
 * @param purge     the scheduled retention purge
 * @param approvals approval expiry and the bounds of what people type
 * @param audit     the audit chain verification command
 * @param login     throttling of password guessing
 * @param tokens    personal access tokens
 * @param tenants   each tenant's retention, raw access and notifications, by tenant name
 */
@ConfigurationProperties(prefix = "airlock")
@Validated
public record PeopleSettings(
        Map<String, @Valid User> users,
        @DefaultValue @Valid Oidc oidc,
        @DefaultValue @Valid Purge purge,
        @DefaultValue @Valid Approvals approvals,
        @DefaultValue Audit audit,
        @DefaultValue @Valid Login login,
        @DefaultValue @Valid Tokens tokens,
        @DefaultValue @Valid EvidenceSchedule evidence,
        Map<String, @Valid Tenant> tenants) {

    /** A tenant that configures nothing of the people's side: every setting at its default. */
    private static final Tenant DEFAULT_TENANT =
            new Binder().bindOrCreate("airlock.tenants.x", Bindable.of(Tenant.class));

    public PeopleSettings {
        users = users == null ? Map.of() : Map.copyOf(users);
        tenants = tenants == null ? Map.of() : Map.copyOf(tenants);
        tenants.forEach((name, tenant) -> tenant.check("airlock.tenants." + name));
    }

    /** The tenant's settings of this side, the defaults when it configures none. */
    public Tenant tenant(String name) {
        return tenants.getOrDefault(name, DEFAULT_TENANT);
    }

    /**
     * One tenant, as the people's side sees it.
     *
     * @param notifications where approval events are announced
     * @param retention     how long each kind of record is kept
     * @param rawAccess     the grant policy for raw artifacts
     * @param evidence      the keys that sign the tenant's evidence bundles and chain anchors
     */
    public record Tenant(
            @DefaultValue @Valid Notifications notifications,
            @DefaultValue @Valid Retention retention,
            @DefaultValue @Valid RawAccess rawAccess,
            @DefaultValue @Valid Evidence evidence) {

        /** Stops the start, naming the key, when a webhook of the tenant at {@code key} is no http(s) URL. */
        void check(String key) {
            for (int i = 0; i < notifications.webhooks().size(); i++) {
                java.net.URI hook = notifications.webhooks().get(i);
                if (hook == null
                        || hook.getHost() == null
                        || !("https".equals(hook.getScheme()) || "http".equals(hook.getScheme()))) {
                    throw new InvalidConfigurationException(
                            key + ".notifications.webhooks[" + i + "]", "must be an absolute http or https URL");
                }
            }
        }
    }

    /**
     * A person who signs in to the console or the approver API.
     *
     * @param password       the password hash in Spring Security's delegating format ({@code {bcrypt}...})
     * @param roles          roles per tenant: APPROVER, AUDITOR, TENANT_ADMIN
     * @param platformAdmin  whether the person administers the whole platform
     */
    public record User(
            String password,
            Map<String, List<String>> roles,
            @DefaultValue("false") boolean platformAdmin) {

        public User {
            roles = roles == null ? Map.of() : roles;
        }
    }

    /**
     * Sign-in through an OpenID Connect provider (configured under
     * {@code spring.security.oauth2.client.*}).
     *
     * @param rolesClaim the ID-token or user-info claim listing the person's roles as {@code ROLE:tenant}
     */
    public record Oidc(@DefaultValue("airlock_roles") String rolesClaim) {}

    /**
     * The scheduled retention purge, which removes what each tenant's {@link Retention} lets go.
     *
     * @param enabled      whether this replica runs it (replicas take turns through a database lock either way)
     * @param interval     the time between the end of one purge and the start of the next
     * @param initialDelay the time from start-up to the first purge
     */
    public record Purge(
            @DefaultValue("true") boolean enabled,

            @DefaultValue("PT1H") @DurationMin(millis = 1, message = "must be a positive duration")
            Duration interval,

            @DefaultValue("PT1M") @DurationMin(nanos = 0, message = "must not be negative")
            Duration initialDelay) {}

    /**
     * Approval requests and what people type into them.
     *
     * @param expiryInterval how often pending requests are checked for expiry
     * @param maxTextLength  the longest reason (or other free text) a person may enter, in characters
     */
    public record Approvals(
            @DefaultValue("PT5S") @DurationMin(millis = 1, message = "must be a positive duration")
            Duration expiryInterval,

            @DefaultValue("2000") @Min(value = 1, message = "must be at least 1")
            int maxTextLength) {}

    /**
     * The audit chain verification command.
     *
     * @param verify the tenants to verify ({@code *} for all); set only to run the command
     */
    public record Audit(String verify) {}

    /**
     * Throttling of password guessing on the console's sign-in form.
     *
     * @param maxFailures           failed attempts for one user name within {@code window} before that name is locked out
     * @param maxFailuresPerAddress failed attempts from one client address within {@code window} before that address is locked out
     * @param window                how far back failed attempts count
     * @param lockout               how long every further attempt is refused after a lock-out
     * @param sessionMaxAge         how long a console session lasts after its sign-in, however active
     */
    public record Login(
            @DefaultValue("5") @Min(value = 1, message = "must be at least 1")
            int maxFailures,

            @DefaultValue("20") @Min(value = 1, message = "must be at least 1")
            int maxFailuresPerAddress,

            @DefaultValue("PT15M") @DurationMin(millis = 1, message = "must be a positive duration")
            Duration window,

            @DefaultValue("PT15M") @DurationMin(millis = 1, message = "must be a positive duration")
            Duration lockout,

            @DefaultValue("PT12H") @DurationMin(minutes = 1, message = "must be at least a minute")
            Duration sessionMaxAge) {}

    /**
     * Personal access tokens.
     *
     * @param defaultTtl how long a token lasts when its creator picks no expiry; unset, 30 days or
     *                   {@code maxTtl} if that is shorter
     * @param maxTtl     the longest lifetime a token may be given
     */
    public record Tokens(
            Duration defaultTtl, @DefaultValue("P90D") Duration maxTtl) {

        /** The default lifetime when none is configured (unless the maximum is shorter). */
        public static final Duration USUAL_TTL = Duration.ofDays(30);

        public Tokens {
            if (maxTtl == null || maxTtl.isNegative() || maxTtl.isZero()) {
                throw new InvalidConfigurationException("airlock.tokens.max-ttl", "must be positive");
            }
            if (defaultTtl == null) {
                defaultTtl = maxTtl.compareTo(USUAL_TTL) < 0 ? maxTtl : USUAL_TTL;
            }
            if (defaultTtl.isNegative() || defaultTtl.isZero() || maxTtl.compareTo(defaultTtl) < 0) {
                throw new InvalidConfigurationException(
                        "airlock.tokens.default-ttl", "must be positive and no longer than airlock.tokens.max-ttl");
            }
        }
    }

    /**
     * How long a tenant keeps each kind of record. Legal holds suspend all of it for a run.
     *
     * @param raw         raw artifact bytes (their digest, sizes and purge time stay)
     * @param transcripts sanitized transcripts
     * @param approvals   decided approval requests and their decisions
     * @param auditEvents audit events, oldest first
     */
    public record Retention(
            @DefaultValue("P7D") @DurationMin(millis = 1, message = POSITIVE_PERIOD)
            Duration raw,

            @DefaultValue("P90D") @DurationMin(millis = 1, message = POSITIVE_PERIOD)
            Duration transcripts,

            @DefaultValue("P400D") @DurationMin(millis = 1, message = POSITIVE_PERIOD)
            Duration approvals,

            @DefaultValue("P400D") @DurationMin(days = 1, message = AT_LEAST_A_DAY)
            Duration auditEvents) {

        static final String POSITIVE_PERIOD = "must be a positive duration such as P7D";

        /** A chain kept for less would lose the record of the change that shortened it by the next purge. */
        static final String AT_LEAST_A_DAY = "must be at least a day (P1D): a shorter audit chain would lose the"
                + " record of what was changed, this setting included, by the next purge";
    }

    /**
     * Who may read raw artifacts, and for how long.
     *
     * @param secondPerson whether a grant needs a second person (AUDITOR or TENANT_ADMIN, not the requester)
     * @param grantTtl     how long a granted access lasts
     */
    public record RawAccess(
            @DefaultValue("true") boolean secondPerson,

            @DefaultValue("PT15M")
            @DurationMin(millis = 1, message = GRANT_TTL)
            @DurationMax(days = 1, message = GRANT_TTL)
            Duration grantTtl) {

        static final String GRANT_TTL = "must be positive and at most P1D";
    }

    /**
     * Where a tenant's approval events are announced.
     *
     * @param webhooks            URLs that receive a JSON POST for each new pending approval and each final decision
     * @param allowPrivateNetwork whether the receivers may be on a non-public address (loopback, private,
     *                            link-local ranges); off, such an address is refused as for HTTP tools
     * @param webhookSecret       where the Standard Webhooks secret that signs every delivery is ({@code env:NAME}
     *                            or {@code file:/path}; its value Base64, optionally {@code whsec_}-prefixed); none:
     *                            deliveries carry an id and a timestamp but no signature
     * @param channels            chat and e-mail channels by name (docs/approvals.md#channels)
     * @param approverGroups      who is told of which tools' requests, on which channels; none: every channel hears
     *                            of every request
     * @param remindBefore        how long before a request expires its groups are reminded; none: no reminder
     * @param escalateAfter       how long after a request was opened, with no decision yet, {@code escalateTo} is told;
     *                            none: no escalation
     * @param escalateTo          the group told on escalation
     */
    public record Notifications(
            List<java.net.URI> webhooks,
            @DefaultValue("false") boolean allowPrivateNetwork,
            @Nullable String webhookSecret,
            Map<String, @Valid Channel> channels,
            Map<String, @Valid ApproverGroup> approverGroups,

            @Nullable @DurationMin(millis = 1, message = "must be a positive duration")
            Duration remindBefore,

            @Nullable @DurationMin(millis = 1, message = "must be a positive duration")
            Duration escalateAfter,

            @Nullable String escalateTo) {

        public Notifications {
            webhooks = webhooks == null ? List.of() : List.copyOf(webhooks);
            channels = channels == null ? Map.of() : Map.copyOf(channels);
            approverGroups = approverGroups == null ? Map.of() : Map.copyOf(approverGroups);
        }
    }

    /** What kind of channel a chat or e-mail channel is. */
    public enum ChannelType {
        /** A Slack incoming webhook: a Block Kit message. */
        SLACK,
        /** A Microsoft Teams workflow webhook: an Adaptive Card. */
        TEAMS,
        /** E-mail through the gateway's SMTP server ({@code spring.mail.*}): a text and an HTML part. */
        EMAIL
    }

    /**
     * One chat or e-mail channel.
     *
     * @param type what it is
     * @param url  Slack or Teams: where its webhook URL is ({@code env:NAME} or {@code file:/path}: the URL holds a
     *             credential); e-mail: none
     * @param to   e-mail: the addresses; Slack or Teams: none
     */
    public record Channel(ChannelType type, @Nullable String url, List<String> to) {

        public Channel {
            to = to == null ? List.of() : List.copyOf(to);
        }
    }

    /**
     * Who is told of which requests.
     *
     * @param channels the channels the group is told on
     * @param tools    names or globs ({@code deploy-*}) of the tools whose requests the group is told of; absent: all
     */
    public record ApproverGroup(List<String> channels, List<String> tools) {

        public ApproverGroup {
            channels = channels == null ? List.of() : List.copyOf(channels);
            tools = tools == null ? List.of("*") : List.copyOf(tools);
        }
    }

    /**
     * The keys that sign a tenant's evidence bundles and chain anchors (docs/evidence.md).
     *
     * @param signingKey the id of the key that signs now; none: the tenant exports no evidence
     * @param keys       every key by id: the current one with its private key, older ones with their public key only
     */
    public record Evidence(@Nullable String signingKey, Map<String, @Valid EvidenceKey> keys) {

        public Evidence {
            keys = keys == null ? Map.of() : Map.copyOf(keys);
        }
    }

    /**
     * One Ed25519 key.
     *
     * @param publicKey  the public key: Base64 of its X.509 encoding, or a PEM {@code PUBLIC KEY}
     * @param privateKey where the private key (PKCS#8, Base64 or PEM) is: {@code env:NAME} or {@code file:/path}; only for the signing key
     */
    public record EvidenceKey(String publicKey, @Nullable String privateKey) {}

    /**
     * Evidence across tenants.
     *
     * @param anchorInterval how often each signing tenant's chain head is signed and published
     * @param publicKeys     the command that prints a tenant's public keys and stops: the tenant
     */
    public record EvidenceSchedule(
            @DefaultValue("PT1H") @DurationMin(seconds = 1, message = "must be at least PT1S")
            Duration anchorInterval,

            @Nullable String publicKeys) {}
}
