/**
 * How people authenticate on the web: the console's security chain (form login, OpenID Connect,
 * personal access tokens on the API, CSRF, the Content-Security-Policy), sign-in throttling, and
 * the database scope of a signed-in person.
 */
@NullMarked
package dev.airlock.approval.people.web;

import org.jspecify.annotations.NullMarked;
