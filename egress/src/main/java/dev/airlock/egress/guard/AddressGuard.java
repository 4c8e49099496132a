package dev.airlock.egress.guard;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.jspecify.annotations.Nullable;

/**
 * Which addresses an upstream's connections may reach. Unless the upstream allows private networks,
 * every address that is not a public unicast address is refused: loopback, link-local (where cloud
 * metadata services answer, 169.254.169.254 and fd00:ec2::254 among them), private (RFC 1918, unique
 * local fc00::/7), shared (100.64.0.0/10), multicast, unspecified, broadcast, the IETF's reserved and
 * documentation ranges, and every IPv6 form that carries an IPv4 address (mapped, compatible, NAT64,
 * 6to4, Teredo), which is judged as that IPv4 address would be. An upstream that allows private
 * networks may reach all of these except the unspecified address and multicast, which name no one
 * host.
 *
 * @param allowPrivateNetwork whether non-public addresses are allowed
 */
public record AddressGuard(boolean allowPrivateNetwork) {

    /** The guard of upstreams on the public internet only. */
    public static final AddressGuard PUBLIC_ONLY = new AddressGuard(false);

    /** Why {@code address} may not be connected to, or null when it may. */
    public @Nullable String refusal(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address) {
            byte[] embedded = embeddedIpv4(bytes);
            if (embedded != null) {
                String inner = refusalOfIpv4(embedded);
                return inner == null ? null : "it carries the IPv4 address " + ipv4(embedded) + ", which " + inner;
            }
            return refusalOfIpv6(bytes);
        }
        if (address instanceof Inet4Address) {
            return refusalOfIpv4(bytes);
        }
        return "it is neither an IPv4 nor an IPv6 address";
    }

    /** What a refusal adds: that private networks would have been allowed had the upstream said so. */
    String suffix() {
        return allowPrivateNetwork ? "" : " (the upstream does not allow private networks)";
    }

    private @Nullable String refusalOfIpv4(byte[] a) {
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        if (b0 == 0 && b1 == 0 && a[2] == 0 && a[3] == 0) {
            return "is the unspecified address";
        }
        if (b0 >= 224 && b0 <= 239) {
            return "is a multicast address";
        }
        if (allowPrivateNetwork) {
            return null;
        }
        if (b0 == 127) {
            return "is a loopback address";
        }
        if (b0 == 169 && b1 == 254) {
            return "is a link-local address (where cloud metadata services answer)";
        }
        if (b0 == 168 && b1 == 63 && (a[2] & 0xff) == 129 && (a[3] & 0xff) == 16) {
            // Public by its range, but it answers only inside the cloud: Azure's host (WireServer) address.
            return "is a cloud platform's host address (Azure's WireServer, 168.63.129.16)";
        }
        if (b0 == 10 || b0 == 172 && b1 >= 16 && b1 <= 31 || b0 == 192 && b1 == 168) {
            return "is a private address";
        }
        if (b0 == 100 && b1 >= 64 && b1 <= 127) {
            return "is a shared (carrier-grade NAT) address";
        }
        if (b0 == 0) {
            return "is in 0.0.0.0/8, which names this network";
        }
        if (b0 >= 240) {
            return "is a reserved or broadcast address";
        }
        if (b0 == 192 && b1 == 0 && (a[2] == 0 || a[2] == 2)
                || b0 == 198 && (b1 == 18 || b1 == 19)
                || b0 == 198 && b1 == 51 && a[2] == 100
                || b0 == 203 && b1 == 0 && a[2] == 113
                || b0 == 192 && b1 == 88 && a[2] == 99) {
            return "is a reserved, benchmarking or documentation address";
        }
        return null;
    }

    private @Nullable String refusalOfIpv6(byte[] a) {
        boolean zeroes = true;
        for (int i = 0; i < 15; i++) {
            zeroes &= a[i] == 0;
        }
        if (zeroes && a[15] == 0) {
            return "is the unspecified address";
        }
        if ((a[0] & 0xff) == 0xff) {
            return "is a multicast address";
        }
        if (allowPrivateNetwork) {
            return null;
        }
        if (undecodedNat64(a)) {
            return "is in a NAT64 prefix other than 64:ff9b::/96, whose IPv4 address is not checked";
        }
        if (zeroes && a[15] == 1) {
            return "is the loopback address";
        }
        if ((a[0] & 0xff) == 0xfe && (a[1] & 0xc0) == 0x80) {
            return "is a link-local address";
        }
        if ((a[0] & 0xff) == 0xfe && (a[1] & 0xc0) == 0xc0) {
            return "is a site-local address";
        }
        if ((a[0] & 0xfe) == 0xfc) {
            return "is a unique local (private) address, where cloud metadata services may answer";
        }
        if ((a[0] & 0xff) == 0x20 && (a[1] & 0xff) == 0x01 && (a[2] & 0xff) == 0x0d && (a[3] & 0xff) == 0xb8) {
            return "is a documentation address";
        }
        if ((a[0] & 0xe0) != 0x20) {
            return "is outside the global unicast range 2000::/3";
        }
        return null;
    }

    /**
     * Whether {@code a} is in 64:ff9b::/32 but not the well-known 64:ff9b::/96: a NAT64 prefix
     * (such as the local-use 64:ff9b:1::/48) whose IPv4 address sits where the prefix length puts
     * it, which the guard does not decode; such addresses are refused as private.
     */
    private static boolean undecodedNat64(byte[] a) {
        if (!(a[0] == 0 && (a[1] & 0xff) == 0x64 && (a[2] & 0xff) == 0xff && (a[3] & 0xff) == 0x9b)) {
            return false;
        }
        for (int i = 4; i < 12; i++) {
            if (a[i] != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The IPv4 address an IPv6 address carries, in any of the forms that reach an IPv4 host: mapped
     * (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::/96; other NAT64 prefixes are refused as private), 6to4
     * (2002::/16) and Teredo (2001::/32, the client address inverted); or null.
     */
    static byte @Nullable [] embeddedIpv4(byte[] a) {
        boolean firstTenZero = true;
        for (int i = 0; i < 10; i++) {
            firstTenZero &= a[i] == 0;
        }
        if (firstTenZero && (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff) {
            return tail(a, 12);
        }
        if (firstTenZero
                && a[10] == 0
                && a[11] == 0
                && !(a[12] == 0 && a[13] == 0 && a[14] == 0 && (a[15] & 0xfe) == 0)) {
            return tail(a, 12);
        }
        if (a[0] == 0
                && (a[1] & 0xff) == 0x64
                && (a[2] & 0xff) == 0xff
                && (a[3] & 0xff) == 0x9b
                && !undecodedNat64(a)) {
            return tail(a, 12);
        }
        if ((a[0] & 0xff) == 0x20 && (a[1] & 0xff) == 0x02) {
            return new byte[] {a[2], a[3], a[4], a[5]};
        }
        if ((a[0] & 0xff) == 0x20 && (a[1] & 0xff) == 0x01 && a[2] == 0 && a[3] == 0) {
            return new byte[] {(byte) ~a[12], (byte) ~a[13], (byte) ~a[14], (byte) ~a[15]};
        }
        return null;
    }

    private static byte[] tail(byte[] a, int from) {
        return new byte[] {a[from], a[from + 1], a[from + 2], a[from + 3]};
    }

    private static String ipv4(byte[] a) {
        return (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff);
    }
}
