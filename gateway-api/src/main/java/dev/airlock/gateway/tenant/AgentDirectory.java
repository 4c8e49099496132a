package dev.airlock.gateway.tenant;

import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.InvalidConfigurationException;
import dev.airlock.kernel.digest.Sha256;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds the agent a bearer key belongs to. Only SHA-256 digests of keys are configured and kept;
 * a presented key is hashed and looked up, never stored or logged.
 */
public final class AgentDirectory {

    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final Map<String, AgentIdentity> byKeyHash;

    private AgentDirectory(Map<String, AgentIdentity> byKeyHash) {
        this.byKeyHash = Map.copyOf(byKeyHash);
    }

    /**
     * The directory of every configured agent.
     *
     * @throws InvalidConfigurationException for a malformed or duplicate key hash
     */
    public static AgentDirectory from(AirlockProperties properties) {
        Map<String, AgentIdentity> byHash = new HashMap<>();
        Map<String, String> keyOfHash = new HashMap<>();
        properties
                .tenants()
                .forEach((tenant, config) -> config.agents().forEach((agent, spec) -> {
                    String key = "airlock.tenants." + tenant + ".agents." + agent + ".key-sha256";
                    String hash = spec == null || spec.keySha256() == null
                            ? ""
                            : spec.keySha256().strip().toLowerCase(Locale.ROOT);
                    if (!HEX_SHA256.matcher(hash).matches()) {
                        throw new InvalidConfigurationException(
                                key,
                                "must be the 64 hex digits of the SHA-256 of the agent's key"
                                        + " (for example: printf %s \"$KEY\" | sha256sum)");
                    }
                    if (keyOfHash.containsKey(hash)) {
                        throw new InvalidConfigurationException(
                                key, "duplicate agent key hash, also used by " + keyOfHash.get(hash));
                    }
                    keyOfHash.put(hash, key);
                    List<String> tools = spec.tools();
                    if (tools != null) {
                        for (int i = 0; i < tools.size(); i++) {
                            String pattern = tools.get(i);
                            if (pattern == null || !pattern.matches("[A-Za-z0-9._*?-]{1,200}")) {
                                throw new InvalidConfigurationException(
                                        "airlock.tenants." + tenant + ".agents." + agent + ".tools[" + i + "]",
                                        "must be a tool name or a glob of one ('*' any run of characters, '?' one)");
                            }
                        }
                    }
                    spec.labels().forEach((label, value) -> {
                        if (!label.matches("[A-Za-z_][A-Za-z0-9_-]{0,62}") || value == null || value.length() > 200) {
                            throw new InvalidConfigurationException(
                                    "airlock.tenants." + tenant + ".agents." + agent + ".labels." + label,
                                    "labels are names of letters, digits, '_' and '-' with values of at most 200 characters");
                        }
                    });
                    byHash.put(hash, new AgentIdentity(tenant, agent, spec.labels(), tools));
                }));
        return new AgentDirectory(byHash);
    }

    /** The agent whose key this is. */
    public Optional<AgentIdentity> authenticate(String presentedKey) {
        return Optional.ofNullable(byKeyHash.get(Sha256.hex(presentedKey)));
    }

    /** The tenant's agent of that name, as configured now. */
    public Optional<AgentIdentity> agent(String tenant, String name) {
        return byKeyHash.values().stream()
                .filter(a -> a.tenant().equals(tenant) && a.agent().equals(name))
                .findFirst();
    }

    /** The agents of every tenant, with their key hashes. */
    public Map<String, AgentIdentity> agentsByKeyHash() {
        return byKeyHash;
    }
}
