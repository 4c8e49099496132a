package dev.airlock.kernel.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** A bean (a controller, a job, a security chain) that exists only on replicas running {@link #value()}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(ConditionalOnSide.OnSide.class)
public @interface ConditionalOnSide {

    /** The side the bean belongs to. */
    Side value();

    /** Matches when {@code airlock.roles} includes the annotated side. */
    final class OnSide implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Map<String, @Nullable Object> attributes =
                    metadata.getAnnotationAttributes(ConditionalOnSide.class.getName());
            if (attributes == null) {
                throw new IllegalStateException("@ConditionalOnSide is not present on " + metadata);
            }
            Side side = (Side) attributes.get("value");
            return Side.configured(context.getEnvironment()).contains(side);
        }
    }
}
