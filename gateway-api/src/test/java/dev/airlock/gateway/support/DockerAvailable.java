package dev.airlock.gateway.support;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.testcontainers.DockerClientFactory;

/** True where Testcontainers finds a Docker engine (asked once per JVM, about half a second). */
public class DockerAvailable implements Condition {

    private static final boolean AVAILABLE = probe();

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return AVAILABLE;
    }

    private static boolean probe() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
