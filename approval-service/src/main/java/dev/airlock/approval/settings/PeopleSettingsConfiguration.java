package dev.airlock.approval.settings;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Binds the people's side's settings on every replica, whichever sides it runs, so that their keys are always known. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PeopleSettings.class)
public class PeopleSettingsConfiguration {}
