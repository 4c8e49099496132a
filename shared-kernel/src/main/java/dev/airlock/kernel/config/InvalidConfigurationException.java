package dev.airlock.kernel.config;

/**
 * The {@code airlock.*} configuration is wrong; the message names the offending key. Thrown at
 * start-up so that the gateway never runs with a configuration it cannot honour.
 */
public class InvalidConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String key;
    private final String problem;

    public InvalidConfigurationException(String key, String problem) {
        super(key + ": " + problem);
        this.key = key;
        this.problem = problem;
    }

    /** The full property key, such as {@code airlock.tenants.acme.tools.git-log.argv[2]}. */
    public String key() {
        return key;
    }

    /** What is wrong with it. */
    public String problem() {
        return problem;
    }
}
