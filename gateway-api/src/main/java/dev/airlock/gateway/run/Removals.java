package dev.airlock.gateway.run;

import dev.airlock.sanitizer.RemovalReport;
import java.util.LinkedHashMap;
import java.util.Map;

/** Removal counts as the envelope shows them and as they are stored (as JSON, in this order). */
final class Removals {

    private Removals() {}

    static Map<String, Long> counts(RemovalReport r) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("csi", r.csi());
        counts.put("osc", r.osc());
        counts.put("c0", r.c0());
        counts.put("c1", r.c1());
        counts.put("invisible", r.invisible());
        counts.put("invalidUtf8", r.invalidUtf8());
        counts.put("esc", r.esc());
        counts.put("dcs", r.dcs());
        counts.put("sosPmApc", r.sosPmApc());
        counts.put("del", r.del());
        counts.put("cr", r.cr());
        counts.put("bs", r.bs());
        counts.put("unterminatedStrings", r.unterminatedStrings());
        counts.put("stringPayloadBytes", r.stringPayloadBytes());
        return counts;
    }
}
