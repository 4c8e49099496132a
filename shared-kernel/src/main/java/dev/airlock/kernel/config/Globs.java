package dev.airlock.kernel.config;

import java.util.regex.Pattern;

/**
 * The globs settings use to name several things at once ({@code deploy-*}, {@code list_?}): {@code *}
 * stands for any run of characters, {@code ?} for one, every other character for itself; a glob
 * matches a whole name.
 */
public final class Globs {

    private Globs() {}

    /** {@code glob} as a regular expression. */
    public static Pattern compile(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /** Whether {@code glob} matches the whole of {@code name}. */
    public static boolean matches(String glob, String name) {
        return compile(glob).matcher(name).matches();
    }
}
