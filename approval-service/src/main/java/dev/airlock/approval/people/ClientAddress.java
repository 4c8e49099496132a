package dev.airlock.approval.people;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** How the sign-in throttle counts a client's address. */
final class ClientAddress {

    /** What {@code getRemoteAddr} gives for IPv6: hex digits and colons, perhaps an embedded IPv4 and a zone. */
    private static final Pattern IPV6_LITERAL = Pattern.compile("\\[?[0-9A-Fa-f:.]+(%[^\\]]*)?\\]?");

    private ClientAddress() {}

    /**
     * The address as counted: an IPv6 address as its /64 network ({@code 2001:db8:1:2::/64}), since
     * a single host is commonly given a whole /64 and could otherwise take a fresh address for every
     * guess; anything else as given.
     */
    static String counted(String address) {
        if (address == null
                || address.indexOf(':') < 0
                || !IPV6_LITERAL.matcher(address).matches()) {
            return address == null ? "" : address;
        }
        String literal = address.replace("[", "").replace("]", "");
        int zone = literal.indexOf('%');
        if (zone >= 0) {
            literal = literal.substring(0, zone);
        }
        try {
            // A literal: parsed, never looked up.
            if (!(InetAddress.getByName(literal) instanceof Inet6Address v6)) {
                return address;
            }
            byte[] bytes = v6.getAddress();
            StringBuilder network = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                network.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff)))
                        .append(':');
            }
            return network.append(":/64").toString();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
