/**
 * Evidence an outside auditor can verify without Airlock's database (docs/evidence.md): signed
 * bundles of runs ({@link dev.airlock.approval.audit.evidence.EvidenceBundles}), the tenants'
 * signing keys ({@link dev.airlock.approval.audit.evidence.EvidenceKeys}) and signed chain
 * anchors ({@link dev.airlock.approval.audit.evidence.ChainAnchors}). The format and its checks
 * live in the JDK-only {@code evidence-verifier} module.
 */
@NullMarked
package dev.airlock.approval.audit.evidence;

import org.jspecify.annotations.NullMarked;
