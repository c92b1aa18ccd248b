package me.loutres.juneau.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.net.InetAddress;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpAddressTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // any valid form            | RFC 5952
            "2001:db8::1                 | 2001:db8::1",
            "2001:DB8:0:0:0:0:0:1        | 2001:db8::1",
            "2001:0db8:0000:0000:0000:0000:0000:0001 | 2001:db8::1",
            "::                          | ::",
            "::1                         | ::1",
            "1::                         | 1::",
            "2001:db8:0:1:1:1:1:1        | 2001:db8:0:1:1:1:1:1",
            "2001:db8::1:0:0:1           | 2001:db8::1:0:0:1",
            "2001:0:0:1:0:0:0:1          | 2001:0:0:1::1",
            "2001:db8:0:0:1:0:0:1        | 2001:db8::1:0:0:1",
            "fd00::a:b                   | fd00::a:b",
            "::ffff:192.0.2.1            | ::ffff:192.0.2.1",
            "::ffff:c000:201             | ::ffff:192.0.2.1",
            "64:ff9b::192.0.2.1          | 64:ff9b::c000:201",
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff | ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "1:2:3:4:5:6:7::             | 1:2:3:4:5:6:7:0",
            "::2:3:4:5:6:7:8             | 0:2:3:4:5:6:7:8",
    })
    void parsesEveryFormAndFormatsAsRfc5952(String text, String normal) {
        IpAddress a = IpAddress.parse(text);
        assertThat(a.family()).isEqualTo(IpFamily.IPV6);
        assertThat(a).hasToString(normal);
        assertThat(IpAddress.parse(normal)).isEqualTo(a);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "2001:db8::1::2        | \"::\" may appear only once",
            "2001:db8:1:2:3:4:5:6:7 | is not an IPv6 address",
            "2001:db8::g           | is not an IPv6 address",
            "2001:db8::12345       | is not an IPv6 address",
            ":2001:db8::1          | is not an IPv6 address",
            "2001:db8::1:          | is not an IPv6 address",
            "1:2:3:4:5:6:7:8::     | is not an IPv6 address",
            "::192.0.2.1:1         | is not an IPv6 address",
            "::1.2.3.256           | its IPv4 part",
            "'[2001:db8::1]'       | is not an IPv6 address",
            "' 2001:db8::1'        | is not an IPv6 address",
            "fe80::1%eth0          | has a zone id (%eth0)",
            "192.0.2.1%eth0        | has a zone id (%eth0)",
            "example.com           | is not an IP address",
            "192.0.2.01            | octets must not have leading zeros",
    })
    void refusesWhatIsNotOneAddressSayingWhy(String text, String words) {
        assertThatThrownBy(() -> IpAddress.parse(text)).isInstanceOf(InvalidAddressException.class)
                .hasMessageContaining(words).hasMessageContaining("\"" + text + "\"");
        assertThat(IpAddress.isValid(text)).isFalse();
    }

    @Test
    void ipv4IsItsThirtyTwoBitValue() {
        IpAddress a = IpAddress.parse("192.0.2.10");
        assertThat(a.family()).isEqualTo(IpFamily.IPV4);
        assertThat(a.ipv4Value()).isEqualTo(Ipv4.parse("192.0.2.10"));
        assertThat(a).hasToString("192.0.2.10");
        assertThat(IpAddress.ipv4(Ipv4.MAX).plus(1)).isNull();
        assertThat(IpAddress.ipv4(0).minusOne()).isNull();
    }

    @Test
    void mappedAndCompatibleFormsAreRecognisedWhateverTheirText() {
        assertThat(Ipv6.isIpv4Mapped(IpAddress.parse("::ffff:192.0.2.1"))).isTrue();
        assertThat(Ipv6.isIpv4Mapped(IpAddress.parse("0:0:0:0:0:ffff:c000:201"))).isTrue();
        assertThat(Ipv6.isIpv4Compatible(IpAddress.parse("::192.0.2.1"))).isTrue();
        assertThat(Ipv6.isIpv4Compatible(IpAddress.parse("::c000:201"))).isTrue();
        assertThat(Ipv6.isIpv4Compatible(IpAddress.parse("::1"))).isFalse();
        assertThat(Ipv6.isIpv4Compatible(IpAddress.parse("::"))).isFalse();
        assertThat(Ipv6.isIpv4Mapped(IpAddress.parse("2001:db8::ffff:c000:201"))).isFalse();
    }

    @Test
    void arithmeticCarriesAcrossTheHalves() {
        IpAddress a = IpAddress.parse("2001:db8:0:1:ffff:ffff:ffff:ffff");
        assertThat(a.plus(1)).hasToString("2001:db8:0:2::");
        assertThat(a.plus(1).minusOne()).isEqualTo(a);
        assertThat(IpAddress.parse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").plus(1)).isNull();
        assertThat(IpAddress.parse("::").minusOne()).isNull();
        assertThat(IpAddress.parse("2001:db8:1:2:3:4:5:6").masked(64)).hasToString("2001:db8:1:2::");
        assertThat(IpAddress.parse("2001:db8:1:2:3:4:5:6").lastOfPrefix(64)).hasToString("2001:db8:1:2:ffff:ffff:ffff:ffff");
        assertThat(IpAddress.parse("2001:db8:1:2:3:4:5:6").masked(120)).hasToString("2001:db8:1:2:3:4:5:0");
        assertThat(IpAddress.parse("2001:db8:1:2:3:4:5:6").masked(32)).hasToString("2001:db8::");
    }

    @Test
    void ordersUnsignedAndIpv4BeforeIpv6() {
        assertThat(IpAddress.parse("8000::")).isGreaterThan(IpAddress.parse("7fff::"));
        assertThat(IpAddress.parse("::8000:0:0:0")).isGreaterThan(IpAddress.parse("::7fff:0:0:0"));
        assertThat(IpAddress.parse("255.255.255.255")).isLessThan(IpAddress.parse("::"));
    }

    /** Property: parsing and formatting agree with the JDK's reading of numeric literals (no name lookup happens for them). */
    @Test
    void agreesWithTheJdkOnRandomAddresses() throws Exception {
        Random r = new Random(40);
        for (int i = 0; i < 2000; i++) {
            long hi = r.nextInt(3) == 0 ? 0x20010db800000000L : r.nextLong();
            long lo = r.nextInt(3) == 0 ? r.nextInt(5) : r.nextLong();
            if (r.nextBoolean()) {
                lo &= 0xFFFF0000FFFFL; // zero groups to compress
            }
            IpAddress a = IpAddress.ipv6(hi, lo);
            String text = a.toString();
            byte[] bytes = InetAddress.getByName(text).getAddress();
            BigInteger expected = new BigInteger(1, bytes);
            BigInteger got = new BigInteger(1, toBytes(hi, lo));
            if (bytes.length == 16) {
                assertThat(got).as(text).isEqualTo(expected);
            }
            assertThat(IpAddress.parse(text)).as(text).isEqualTo(a);
            assertThat(text).doesNotContain(":0:0:").doesNotContainPattern(":0[0-9a-f]");
        }
    }

    private static byte[] toBytes(long hi, long lo) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (hi >>> (56 - 8 * i));
            b[i + 8] = (byte) (lo >>> (56 - 8 * i));
        }
        return b;
    }
}
