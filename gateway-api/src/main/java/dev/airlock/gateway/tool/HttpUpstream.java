package dev.airlock.gateway.tool;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What an HTTP tool's run records of its upstream and what approvers see of it: where requests
 * go and how they are authenticated, secrets only as where their values come from.
 *
 * @param name                the upstream's name
 * @param baseUrl             its base URL
 * @param allowPrivateNetwork whether it may be reached on a non-public address
 * @param auth                its credential, or null for none
 */
public record HttpUpstream(
        String name,
        String baseUrl,
        boolean allowPrivateNetwork,
        @Nullable Auth auth) {

    /**
     * An upstream's credential, as recorded: never a value.
     *
     * @param type       {@code bearer}, {@code basic} or {@code header}
     * @param headerName the header it is sent in
     * @param username   for {@code basic}: the user name (not secret), else null
     * @param sources    the secret's parts ({@code token}, {@code password}, {@code value}) → where each comes from
     */
    public record Auth(
            String type, String headerName, @Nullable String username, Map<String, String> sources) {

        public Auth {
            sources = Map.copyOf(sources);
        }

        /** How approvers see the credential's header: never its value, only where the secret comes from. */
        public String shown() {
            String source = sources.values().stream().sorted().findFirst().orElse("");
            String name = source.startsWith("env:")
                    ? source.substring(4)
                    : source.startsWith("file:") ? source.substring(source.lastIndexOf('/') + 1) : source;
            return "[secret " + name + "]";
        }
    }
}
