package dev.airlock.egress.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which addresses an upstream may reach, address by address, with and without private networks. */
class AddressGuardTests {

    @ParameterizedTest(name = "{0}: public-only {1}, private allowed {2}")
    @CsvSource(delimiter = '|', textBlock = """
            93.184.216.34           | allowed | allowed
            8.8.8.8                 | allowed | allowed
            127.0.0.1               | loopback | allowed
            127.255.0.9             | loopback | allowed
            10.0.0.1                | private | allowed
            172.16.0.1              | private | allowed
            172.31.255.255          | private | allowed
            172.32.0.1              | allowed | allowed
            192.168.1.1             | private | allowed
            169.254.169.254         | link-local | allowed
            168.63.129.16           | host address | allowed
            168.63.129.17           | allowed | allowed
            ::ffff:168.63.129.16    | host address | allowed
            100.64.0.1              | shared | allowed
            100.128.0.1             | allowed | allowed
            0.0.0.0                 | unspecified | unspecified
            0.1.2.3                 | this network | allowed
            224.0.0.1               | multicast | multicast
            255.255.255.255         | broadcast | allowed
            192.0.2.10              | documentation | allowed
            ::                      | unspecified | unspecified
            ::1                     | loopback | allowed
            fe80::1                 | link-local | allowed
            fd00::1                 | unique local | allowed
            fd00:ec2::254           | unique local | allowed
            fc00::1                 | unique local | allowed
            ff02::1                 | multicast | multicast
            2001:db8::1             | documentation | allowed
            2606:4700::1111         | allowed | allowed
            ::ffff:10.0.0.1         | private | allowed
            ::ffff:127.0.0.1        | loopback | allowed
            ::ffff:169.254.169.254  | link-local | allowed
            ::ffff:93.184.216.34    | allowed | allowed
            ::10.0.0.1              | private | allowed
            64:ff9b::a9fe:a9fe      | link-local | allowed
            64:ff9b::808:808        | allowed | allowed
            64:ff9b:1:a00:0:100:808:808 | NAT64 prefix | allowed
            2002:a00:1::            | private | allowed
            2001:0:4136:e378:8000:63bf:f5ff:fffe | private | allowed
            """)
    void judgesEachAddress(String literal, String publicOnly, String privateAllowed) throws UnknownHostException {
        InetAddress address = dev.airlock.egress.TestNetwork.literal(literal);
        assertVerdict(new AddressGuard(false).refusal(address), publicOnly, literal);
        assertVerdict(new AddressGuard(true).refusal(address), privateAllowed, literal);
    }

    private static void assertVerdict(String refusal, String expected, String literal) {
        if (expected.equals("allowed")) {
            assertThat(refusal).as(literal).isNull();
        } else {
            assertThat(refusal).as(literal).isNotNull().contains(expected);
        }
    }
}
