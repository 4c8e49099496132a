package dev.airlock.kernel.config;

/**
 * The globs settings use to name several things at once ({@code deploy-*}, {@code list_?}): {@code *}
 * stands for any run of characters, {@code ?} for one, every other character for itself; a glob
 * matches a whole name.
 */
public final class Globs {

    private Globs() {}

    /**
     * Whether {@code glob} matches the whole of {@code name}: in time linear in the product of their
     * lengths at worst, never backtracking (a name may be chosen by an upstream server, and a
     * pattern like {@code *a*a*a*b} as a regular expression would backtrack combinatorially).
     */
    public static boolean matches(String glob, String name) {
        int g = 0;
        int n = 0;
        int star = -1;
        int resume = 0;
        while (n < name.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                star = g++;
                resume = n;
            } else if (g < glob.length() && (glob.charAt(g) == '?' || glob.charAt(g) == name.charAt(n))) {
                g++;
                n++;
            } else if (star >= 0) {
                g = star + 1;
                n = ++resume;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }
}
