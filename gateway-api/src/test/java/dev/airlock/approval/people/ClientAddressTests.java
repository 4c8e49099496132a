package dev.airlock.approval.people;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the sign-in throttle counts a client's address. */
class ClientAddressTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            2001:db8:1:2:3:4:5:6      | 2001:db8:1:2::/64
            2001:DB8:1:2:ffff::9      | 2001:db8:1:2::/64
            [2001:db8::1]             | 2001:db8:0:0::/64
            fe80::1%eth0              | fe80:0:0:0::/64
            ::1                       | 0:0:0:0::/64
            10.0.0.1                  | 10.0.0.1
            ::ffff:10.0.0.1           | ::ffff:10.0.0.1
            a:b                       | a:b
            unix-socket:/run/x        | unix-socket:/run/x
            """)
    void anIpv6AddressCountsAsItsSlash64AndAnythingElseAsGiven(String address, String counted) {
        assertThat(ClientAddress.counted(address)).isEqualTo(counted);
    }
}
