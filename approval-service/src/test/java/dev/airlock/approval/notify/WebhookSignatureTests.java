package dev.airlock.approval.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The Standard Webhooks signature, against the specification's own example. */
class WebhookSignatureTests {

    /** The example of the Standard Webhooks specification and its reference libraries. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void signsAsTheSpecificationsExample() {
        WebhookSignature signature = WebhookSignature.of(SECRET, "key");
        byte[] body = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
        assertThat(signature.headers("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, body))
                .containsEntry("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
                .containsEntry("webhook-timestamp", "1614265330")
                .containsEntry("webhook-signature", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assertThat(WebhookSignature.of(SECRET.substring("whsec_".length()), "key")
                        .sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, body))
                .as("the prefix is optional")
                .isEqualTo("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assertThat(signature.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265331L, body))
                .as("another timestamp, another signature")
                .isNotEqualTo("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void refusesASecretThatIsNotBase64OrTooShort() {
        assertThatThrownBy(() ->
                        WebhookSignature.of("whsec_not base64!", "airlock.tenants.a.notifications.webhook-secret"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("airlock.tenants.a.notifications.webhook-secret");
        assertThatThrownBy(() -> WebhookSignature.of("whsec_c2hvcnQ=", "key"))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("24");
    }
}
