package dev.airlock.gateway.settings;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds the agent side's settings on every replica, whichever sides it runs, so that their keys are always known. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AgentSettings.class)
public class AgentSettingsConfiguration {}
