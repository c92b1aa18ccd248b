package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CertificateRotationTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration CA_LIFE = Duration.ofDays(300);
    static final Duration LIFE = Duration.ofDays(30);

    static CertificateRotation.Request request(boolean force, boolean forceCa, List<String> dns) {
        return new CertificateRotation.Request("juneau-webhook", "juneau-system", dns, List.of(), CA_LIFE, LIFE,
                KeyAlgorithm.ECDSA_P256, force, forceCa, null);
    }

    static CertificateRotation.Result first() {
        return CertificateRotation.apply(CertificateRotation.Existing.none(), request(false, false, List.of()), T0);
    }

    static CertificateRotation.Existing from(CertificateRotation.Result r) {
        return new CertificateRotation.Existing(Optional.of(r.ca()), Optional.of(r.serving()), r.bundle());
    }

    @Test
    void nothingExistingCreatesEverything() {
        CertificateRotation.Result r = first();
        assertThat(r.caCreated()).isTrue();
        assertThat(r.servingIssued()).isTrue();
        assertThat(r.bundle()).containsExactly(r.ca().leaf());
        assertThat(r.reasons()).contains("CA created: none found", "serving certificate issued: none found");
    }

    /** (days after T0, force, forceCa, extra DNS, CA renewed?, serving renewed?, reason fragment) */
    static Stream<Arguments> decisions() {
        return Stream.of(
                Arguments.of(1, false, false, List.of(), false, false, "serving certificate kept"),
                Arguments.of(19, false, false, List.of(), false, false, "serving certificate kept"),
                Arguments.of(20, false, false, List.of(), false, true, "reached 2/3 of its lifetime"),
                Arguments.of(31, false, false, List.of(), false, true, "expired"),
                Arguments.of(1, true, false, List.of(), false, true, "renewal forced"),
                Arguments.of(1, false, false, List.of("webhook.example.org"), false, true, "differ from the requested"),
                Arguments.of(1, false, true, List.of(), true, true, "the CA changed"),
                Arguments.of(200, false, false, List.of(), true, true, "the previous CA reached 2/3"));
    }

    @ParameterizedTest
    @MethodSource("decisions")
    void renewsOnlyWhenDueChangedOrForced(int days, boolean force, boolean forceCa, List<String> dns,
                                          boolean caRenewed, boolean servingRenewed, String reason) {
        CertificateRotation.Result before = first();
        CertificateRotation.Result after = CertificateRotation.apply(from(before), request(force, forceCa, dns),
                T0.plus(Duration.ofDays(days)));
        assertThat(after.caCreated()).isEqualTo(caRenewed);
        assertThat(after.servingIssued()).isEqualTo(servingRenewed);
        assertThat(String.join("\n", after.reasons())).contains(reason);
        if (!servingRenewed) {
            assertThat(after.serving()).isSameAs(before.serving());
            assertThat(after.changed()).isFalse();
        }
    }

    @Test
    void caChangeKeepsTheOldCaInTheBundleUntilItExpires(@TempDir Path dir) throws Exception {
        CertificateRotation.Result before = first();
        Instant renewal = T0.plus(Duration.ofDays(200));
        CertificateRotation.Result after = CertificateRotation.apply(from(before), request(false, false, List.of()), renewal);
        assertThat(after.caCreated()).isTrue();
        assertThat(after.bundle()).containsExactly(after.ca().leaf(), before.ca().leaf());
        assertThat(after.bundleChanged()).isTrue();

        // a client trusting the bundle accepts both the old and the new serving certificate (openssl, at that time)
        String at = Long.toString(renewal.getEpochSecond());
        Path bundle = OpenSsl.write(dir, "bundle.crt", after.bundlePem());
        OpenSsl.ok("verify", "-attime", at, "-CAfile", bundle.toString(),
                OpenSsl.write(dir, "new.crt", after.serving().certificatePem()).toString());
        // the old serving certificate has expired by then; re-issue one from the old CA to model a pod not yet reloaded
        CertificateAndKey oldServing = CertificateIssuer.issueServing(before.ca(), "juneau-webhook", "juneau-system",
                List.of(), List.of(), LIFE, renewal);
        OpenSsl.ok("verify", "-attime", at, "-CAfile", bundle.toString(),
                OpenSsl.write(dir, "old.crt", oldServing.certificatePem()).toString());

        // once the old CA has expired it leaves the bundle
        CertificateRotation.Result later = CertificateRotation.apply(from(after), request(false, false, List.of()),
                T0.plus(CA_LIFE).plus(Duration.ofDays(1)));
        assertThat(later.bundle()).containsExactly(after.ca().leaf());
        assertThat(later.caCreated()).isFalse();
    }

    @Test
    void mismatchedServingKeyIsReplaced() {
        CertificateRotation.Result before = first();
        CertificateAndKey other = CertificateIssuer.issueServing(before.ca(), "juneau-webhook", "juneau-system", List.of(),
                List.of(), LIFE, T0);
        CertificateRotation.Existing broken = new CertificateRotation.Existing(Optional.of(before.ca()),
                Optional.of(new CertificateAndKey(before.serving().chain(), other.key())), before.bundle());
        CertificateRotation.Result r = CertificateRotation.apply(broken, request(false, false, List.of()), T0.plusSeconds(60));
        assertThat(r.servingIssued()).isTrue();
        assertThat(r.reasons()).anyMatch(s -> s.contains("does not match"));
    }

    @Test
    void servingFromAnotherCaIsReplaced() {
        CertificateRotation.Result a = first();
        CertificateRotation.Result b = first();
        CertificateRotation.Existing mixed = new CertificateRotation.Existing(Optional.of(a.ca()), Optional.of(b.serving()),
                a.bundle());
        CertificateRotation.Result r = CertificateRotation.apply(mixed, request(false, false, List.of()), T0.plusSeconds(60));
        assertThat(r.servingIssued()).isTrue();
        assertThat(r.reasons()).anyMatch(s -> s.contains("not signed by the current CA"));
    }

    @Test
    void badNamesAreRefusedBeforeAnythingIsGenerated() {
        assertThatThrownBy(() -> CertificateRotation.apply(CertificateRotation.Existing.none(),
                new CertificateRotation.Request("web", "ns", List.of(), List.of("not-an-ip"), CA_LIFE, LIFE, null, false, false, null),
                T0)).hasMessageContaining("extra IP 'not-an-ip'");
    }
}
