/**
 * The human side of Airlock: everything people do. Approval requests and decisions with the
 * action rendering and its digest ({@code request}, {@code action}), notifications
 * ({@code notify}), raw-access grants ({@code grant}), people, their roles, sign-in throttling
 * and access tokens ({@code people}), the auditors' queries, reports, exports and raw access
 * ({@code audit}), and the web adapters: the console ({@code console}), the approver API
 * ({@code request.web}) and the auditor API ({@code audit.web}). It depends on persistence and
 * the sanitizer, never on the agent side; the application in gateway-api assembles it with the
 * agent side when {@code airlock.roles} includes {@code console}.
 */
package dev.airlock.approval;
