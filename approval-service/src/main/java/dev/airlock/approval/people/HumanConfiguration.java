package dev.airlock.approval.people;

import dev.airlock.approval.input.HumanText;
import dev.airlock.approval.settings.PeopleSettings;
import dev.airlock.kernel.config.TenantNames;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The configured people, for form login, and the bound on what people type. */
@Configuration(proxyBeanMethods = false)
class HumanConfiguration {

    @Bean
    HumanDirectory humanDirectory(PeopleSettings people, TenantNames tenants) {
        return HumanDirectory.from(people, tenants);
    }

    @Bean
    HumanText humanText(PeopleSettings properties) {
        return new HumanText(properties.approvals().maxTextLength());
    }
}
