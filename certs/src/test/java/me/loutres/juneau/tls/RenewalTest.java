package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RenewalTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:05:00Z");
    static X509Certificate cert; // notBefore 00:00, notAfter 00:05 + 90d: lifetime 90d + 5min

    @BeforeAll
    static void issue() {
        cert = CertificateIssuer.createCa("ca", Duration.ofDays(90), T0).leaf();
    }

    @Test
    void renewAtIsTwoThirdsOfTheLifetimeFromNotBefore() {
        Instant notBefore = cert.getNotBefore().toInstant();
        Duration life = Duration.between(notBefore, cert.getNotAfter().toInstant());
        assertThat(Renewal.renewAt(cert)).isEqualTo(notBefore.plus(life.multipliedBy(2).dividedBy(3)));
        assertThat(Renewal.renewAt(cert)).isEqualTo(Instant.parse("2026-03-02T00:03:20Z"));
    }

    @ParameterizedTest
    @CsvSource({
            "2026-01-01T00:05:00Z, false, false",
            "2026-03-02T00:03:19Z, false, false",
            "2026-03-02T00:03:20Z, true, false",
            "2026-03-31T00:04:59Z, true, false",
            "2026-04-01T00:05:00Z, true, true",
            "2027-01-01T00:00:00Z, true, true"})
    void dueAndExpired(Instant now, boolean due, boolean expired) {
        assertThat(Renewal.due(cert, now)).isEqualTo(due);
        assertThat(Renewal.expired(cert, now)).isEqualTo(expired);
    }

    @Test
    void bundleKeepsActiveFirstAndDropsExpiredAndDuplicates() {
        X509Certificate old = CertificateIssuer.createCa("old", Duration.ofDays(10), T0).leaf();
        X509Certificate expired = CertificateIssuer.createCa("expired", Duration.ofDays(1), T0).leaf();
        X509Certificate active = CertificateIssuer.createCa("active", Duration.ofDays(100), T0).leaf();
        Instant now = T0.plus(Duration.ofDays(5));
        assertThat(CaBundle.merge(List.of(old, expired, active, old), active, now)).containsExactly(active, old);
        assertThat(CaBundle.merge(List.of(), active, now)).containsExactly(active);
        assertThat(CaBundle.merge(List.of(old), active, T0.plus(Duration.ofDays(11)))).containsExactly(active);
    }
}
