package dev.airlock.sanitizer;

/**
 * What a {@link TerminalSanitizer} removed or changed, as counts per class. Never holds a
 * payload, so it is safe to log and to show to agents.
 *
 * <p>Each escape sequence or control string is counted once, by its kind, whether it was
 * introduced by ESC or by a C1 code point.
 *
 * @param esc                 escape sequences other than CSI and string controls, including a lone
 *                            ESC and a standalone ST
 * @param csi                 control sequences (CSI)
 * @param osc                 operating system commands (OSC)
 * @param dcs                 device control strings (DCS)
 * @param sosPmApc            start-of-string, privacy-message and application-program-command strings
 * @param c0                  C0 controls dropped (BEL, NUL, CAN, SUB, ...); TAB, LF, CR, BS and ESC are
 *                            counted elsewhere or kept
 * @param c1                  C1 control code points (U+0080–U+009F) dropped that introduce no sequence
 * @param del                 DEL bytes dropped
 * @param cr                  carriage returns consumed (turned into LF or used for overwriting)
 * @param bs                  backspaces consumed
 * @param invisible           invisible code points removed (format characters, default-ignorable code
 *                            points, variation selectors, tags, joiners outside emoji sequences)
 * @param invalidUtf8         U+FFFD replacement characters written for invalid UTF-8
 * @param unterminatedStrings control strings still open at the end of input (their payload was
 *                            discarded to the end)
 * @param stringPayloadBytes  bytes discarded as the payload of control strings
 * @param inputBytes          bytes read
 * @param outputBytes         bytes of sanitized text written
 */
public record RemovalReport(
        long esc,
        long csi,
        long osc,
        long dcs,
        long sosPmApc,
        long c0,
        long c1,
        long del,
        long cr,
        long bs,
        long invisible,
        long invalidUtf8,
        long unterminatedStrings,
        long stringPayloadBytes,
        long inputBytes,
        long outputBytes) {

    /** A report with every count zero. */
    public static final RemovalReport EMPTY = new RemovalReport(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Whether anything at all was removed or changed. */
    public boolean isClean() {
        return esc
                        + csi
                        + osc
                        + dcs
                        + sosPmApc
                        + c0
                        + c1
                        + del
                        + cr
                        + bs
                        + invisible
                        + invalidUtf8
                        + unterminatedStrings
                == 0;
    }

    /** The report as one JSON object on one line, keys in declaration order. */
    public String toJson() {
        return "{\"esc\":" + esc
                + ",\"csi\":" + csi
                + ",\"osc\":" + osc
                + ",\"dcs\":" + dcs
                + ",\"sosPmApc\":" + sosPmApc
                + ",\"c0\":" + c0
                + ",\"c1\":" + c1
                + ",\"del\":" + del
                + ",\"cr\":" + cr
                + ",\"bs\":" + bs
                + ",\"invisible\":" + invisible
                + ",\"invalidUtf8\":" + invalidUtf8
                + ",\"unterminatedStrings\":" + unterminatedStrings
                + ",\"stringPayloadBytes\":" + stringPayloadBytes
                + ",\"inputBytes\":" + inputBytes
                + ",\"outputBytes\":" + outputBytes
                + "}";
    }
}
