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

    /**
     * The first constraint a bound settings record broke (a {@code @Min}, a {@code @DurationMin}),
     * as this exception: the key in the form it is written in ({@code
     * airlock.tenants.acme.limits.concurrent-runs}) and the constraint's message.
     */
    public static InvalidConfigurationException of(
            org.springframework.boot.context.properties.bind.validation.BindValidationException e) {
        var errors = e.getValidationErrors();
        org.springframework.validation.ObjectError error = errors.getAllErrors().getFirst();
        String key = errors.getName().toString();
        if (error instanceof org.springframework.validation.FieldError field) {
            key = key + "." + propertyPath(field.getField());
        }
        return new InvalidConfigurationException(key, String.valueOf(error.getDefaultMessage()));
    }

    /** {@code tenants[acme].limits.concurrentRuns} → {@code tenants.acme.limits.concurrent-runs}; list indexes stay. */
    static String propertyPath(String beanPath) {
        StringBuilder key = new StringBuilder();
        for (String part : beanPath.split("\\.")) {
            int bracket = part.indexOf('[');
            String name = bracket < 0 ? part : part.substring(0, bracket);
            if (!key.isEmpty()) {
                key.append('.');
            }
            key.append(org.springframework.boot.context.properties.bind.DataObjectPropertyName.toDashedForm(name));
            while (bracket >= 0) {
                int end = part.indexOf(']', bracket);
                String index = part.substring(bracket + 1, end);
                key.append(index.chars().allMatch(Character::isDigit) ? "[" + index + "]" : "." + index);
                bracket = part.indexOf('[', end);
            }
        }
        return key.toString();
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
