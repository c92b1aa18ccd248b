package me.loutres.juneau.certs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.tls.OpenSsl;
import me.loutres.juneau.tls.Pem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GenerateCommandTest {
    static final ClientFactory NO_CLIENT = k -> {
        throw new AssertionError("no API client expected");
    };

    static Run generate(Instant now, Path out, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("generate", "--service", "juneau-webhook",
                "--namespace", "juneau-system", "--out", out.toString()));
        args.addAll(List.of(extra));
        return Run.certs(NO_CLIENT, now, args.toArray(String[]::new));
    }

    static String at(Instant t) {
        return Long.toString(t.getEpochSecond());
    }

    @Test
    void writesAVerifiableChainWithPrivateKeyFiles(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Instant now = Instant.now();
        Run r = generate(now, out, "--lifetime", "90d", "--dns", "webhook.example.org", "--ip", "192.0.2.7");
        assertThat(r.exit()).as(r.all()).isZero();

        OpenSsl.ok("verify", "-CAfile", out.resolve("ca.crt").toString(), "-purpose", "sslserver",
                "-verify_hostname", "juneau-webhook.juneau-system.svc", out.resolve("tls.crt").toString());
        String text = OpenSsl.ok("x509", "-in", out.resolve("tls.crt").toString(), "-noout", "-text");
        assertThat(text).contains("DNS:juneau-webhook.juneau-system.svc.cluster.local", "DNS:webhook.example.org",
                "IP Address:192.0.2.7");
        String enddate = OpenSsl.ok("x509", "-in", out.resolve("tls.crt").toString(), "-noout", "-enddate");
        Instant notAfter = Pem.readCertificates(Files.readString(out.resolve("tls.crt"))).get(0).getNotAfter().toInstant();
        assertThat(Duration.between(now, notAfter)).isBetween(Duration.ofDays(90).minusSeconds(1), Duration.ofDays(90));
        assertThat(enddate).startsWith("notAfter=");
        assertThat(OpenSsl.ok("pkey", "-in", out.resolve("tls.key").toString(), "-pubout"))
                .isEqualTo(OpenSsl.ok("x509", "-in", out.resolve("tls.crt").toString(), "-noout", "-pubkey"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("tls.key")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("ca/ca.key")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("ca")))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("tls.crt")))).isEqualTo("rw-r--r--");
        assertThat(r.out()).contains("CA created: none found", "wrote " + out.resolve("tls.key") + " (mode 0600)");
        assertNoKeyMaterial(r, out.resolve("tls.key"), out.resolve("ca/ca.key"));
        // no temporary files left behind
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("ca", "ca.crt", "tls.crt", "tls.key");
        }
    }

    @Test
    void secondRunChangesNothingUntilDueThenRenewsWithTheSameCa(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Instant t0 = Instant.parse("2026-11-29T00:00:00Z");
        assertThat(generate(t0, out, "--lifetime", "30d").exit()).isZero();
        String crt = Files.readString(out.resolve("tls.crt"));
        String key = Files.readString(out.resolve("tls.key"));
        String ca = Files.readString(out.resolve("ca/ca.crt"));

        Run again = generate(t0.plus(Duration.ofDays(10)), out, "--lifetime", "30d");
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("serving certificate kept", "done: nothing was due").doesNotContain("wrote");
        assertThat(Files.readString(out.resolve("tls.crt"))).isEqualTo(crt);
        assertThat(Files.readString(out.resolve("tls.key"))).isEqualTo(key);

        Instant due = t0.plus(Duration.ofDays(21));
        Run renewed = generate(due, out, "--lifetime", "30d");
        assertThat(renewed.exit()).as(renewed.all()).isZero();
        assertThat(renewed.out()).contains("reached 2/3 of its lifetime", "CA kept");
        assertThat(Files.readString(out.resolve("tls.crt"))).isNotEqualTo(crt);
        assertThat(Files.readString(out.resolve("tls.key"))).isNotEqualTo(key);
        assertThat(Files.readString(out.resolve("ca/ca.crt"))).isEqualTo(ca);
        OpenSsl.ok("verify", "-attime", at(due), "-CAfile", out.resolve("ca.crt").toString(), out.resolve("tls.crt").toString());
    }

    @Test
    void forceRenewsTheServingCertificateOnly(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Instant t0 = Instant.now();
        generate(t0, out);
        String crt = Files.readString(out.resolve("tls.crt"));
        String ca = Files.readString(out.resolve("ca.crt"));
        Run forced = generate(t0, out, "--force");
        assertThat(forced.exit()).isZero();
        assertThat(Files.readString(out.resolve("tls.crt"))).isNotEqualTo(crt);
        assertThat(Files.readString(out.resolve("ca.crt"))).isEqualTo(ca);
    }

    @Test
    void caChangeKeepsBothCasInTheBundle(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Instant t0 = Instant.parse("2026-11-29T00:00:00Z");
        generate(t0, out, "--ca-lifetime", "300d", "--lifetime", "30d");
        Path oldTls = dir.resolve("old-tls.crt");
        Files.copy(out.resolve("tls.crt"), oldTls);
        String oldCa = Files.readString(out.resolve("ca/ca.crt"));

        Instant t1 = t0.plus(Duration.ofDays(15));
        Run r = generate(t1, out, "--ca-lifetime", "300d", "--lifetime", "30d", "--renew-ca");
        assertThat(r.exit()).as(r.all()).isZero();
        assertThat(r.out()).contains("CA created: renewal forced", "CA bundle holds 2 CAs");
        assertThat(Pem.readCertificates(Files.readString(out.resolve("ca.crt")))).hasSize(2)
                .contains(Pem.readCertificates(oldCa).get(0));
        // a pod still serving the old certificate and a pod serving the new one are both trusted
        OpenSsl.ok("verify", "-attime", at(t1), "-CAfile", out.resolve("ca.crt").toString(), oldTls.toString());
        OpenSsl.ok("verify", "-attime", at(t1), "-CAfile", out.resolve("ca.crt").toString(), out.resolve("tls.crt").toString());
        // the new certificate is not signed by the old CA
        OpenSsl.Result onlyOld = OpenSsl.run("verify", "-attime", at(t1), "-CAfile",
                OpenSsl.write(dir, "old-ca.crt", oldCa).toString(), out.resolve("tls.crt").toString());
        assertThat(onlyOld.exitCode()).isNotZero();
    }

    @Test
    void reusesAGivenCaDirectory(@TempDir Path dir) throws Exception {
        Path caDir = dir.resolve("ca");
        Instant now = Instant.now();
        Run first = Run.certs(NO_CLIENT, now, "generate", "--service", "a", "--namespace", "x", "--out",
                dir.resolve("a").toString(), "--ca-dir", caDir.toString());
        assertThat(first.exit()).as(first.all()).isZero();
        String ca = Files.readString(caDir.resolve("ca.crt"));
        Run second = Run.certs(NO_CLIENT, now, "generate", "--service", "b", "--namespace", "y", "--out",
                dir.resolve("b").toString(), "--ca-dir", caDir.toString());
        assertThat(second.exit()).as(second.all()).isZero();
        assertThat(second.out()).contains("CA kept");
        assertThat(Files.readString(caDir.resolve("ca.crt"))).isEqualTo(ca);
        OpenSsl.ok("verify", "-CAfile", caDir.resolve("ca.crt").toString(), dir.resolve("b/tls.crt").toString());
        OpenSsl.ok("verify", "-CAfile", dir.resolve("a/ca.crt").toString(), dir.resolve("b/tls.crt").toString());
    }

    @Test
    void caMadeByOpensslIsReused(@TempDir Path dir) throws Exception {
        Path caDir = Files.createDirectories(dir.resolve("ca"));
        OpenSsl.ok("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=ops-ca",
                "-days", "30", "-keyout", caDir.resolve("ca.key").toString(), "-out", caDir.resolve("ca.crt").toString());
        Run r = Run.certs(NO_CLIENT, Instant.now(), "generate", "--service", "web", "--namespace", "ns1", "--out",
                dir.resolve("out").toString(), "--ca-dir", caDir.toString(), "--lifetime", "7d");
        assertThat(r.exit()).as(r.all()).isZero();
        assertThat(r.out()).contains("CA kept");
        OpenSsl.ok("verify", "-CAfile", caDir.resolve("ca.crt").toString(), dir.resolve("out/tls.crt").toString());
    }

    static Stream<Arguments> badUsage() {
        return Stream.of(
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1"), "--out DIR and/or --secret NAME"),
                Arguments.of(List.of("generate", "--service", "Web!", "--namespace", "ns1", "--out", "OUT"), "service 'Web!' is not a DNS-1123 label"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--lifetime", "soon"), "lifetime 'soon' is not understood"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--ip", "host.example"), "extra IP 'host.example'"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--key-algorithm", "dsa"), "use ecdsa-p256 or rsa-2048"),
                Arguments.of(List.of("generate", "--namespace", "ns1", "--out", "OUT"), "Missing required option: '--service"),
                // numbers: a leaf outliving its CA used to be cut short without a word
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--lifetime", "20y", "--ca-lifetime", "1y"),
                        "--lifetime 20y is longer than --ca-lifetime 1y; a certificate cannot outlive the CA that signs it"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--lifetime", "87601h"),
                        "--lifetime 87601h is longer than --ca-lifetime 87600h"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--lifetime", "0h"),
                        "--lifetime 0h is too short; use at least 1m"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--ca-lifetime", "30s"),
                        "--ca-lifetime 30s is too short"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--ca-lifetime", "9000y"),
                        "--ca-lifetime 9000y would end after the year 9999"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--ca-lifetime", "99999999999999999999y"),
                        "lifetime '99999999999999999999y' is not understood"),
                Arguments.of(List.of("generate", "--service", "web", "--namespace", "ns1", "--out", "OUT", "--ca-lifetime", "25000000000000000y"),
                        "lifetime '25000000000000000y' is not understood"));
    }

    @ParameterizedTest
    @MethodSource("badUsage")
    void badUsageExitsTwoWithOneLineAndWritesNothing(List<String> args, String message, @TempDir Path dir) {
        String[] a = args.stream().map(s -> s.equals("OUT") ? dir.resolve("out").toString() : s).toArray(String[]::new);
        Run r = Run.certs(a);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.err().lines().findFirst().orElseThrow()).contains(message);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void halfACaIsRefused(@TempDir Path dir) throws Exception {
        Path caDir = Files.createDirectories(dir.resolve("ca"));
        OpenSsl.ok("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=x",
                "-days", "3", "-keyout", dir.resolve("k.pem").toString(), "-out", caDir.resolve("ca.crt").toString());
        Run r = Run.certs(NO_CLIENT, Instant.now(), "generate", "--service", "web", "--namespace", "ns1", "--out",
                dir.resolve("out").toString(), "--ca-dir", caDir.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("holds only half of a CA (key missing)").hasLineCount(1);
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void corruptCaKeyIsRefusedWithoutQuotingIt(@TempDir Path dir) throws Exception {
        Path caDir = dir.resolve("ca");
        generate(Instant.now(), dir.resolve("first"), "--ca-dir", caDir.toString());
        String key = Files.readString(caDir.resolve("ca.key"));
        String body = key.lines().skip(1).findFirst().orElseThrow();
        Files.writeString(caDir.resolve("ca.key"), key.replace(body, body.substring(0, 30) + "%%" + body.substring(32)));
        Run r = generate(Instant.now(), dir.resolve("out"), "--ca-dir", caDir.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("the CA in " + caDir + " is unusable").hasLineCount(1).doesNotContain(body.substring(0, 30));
    }

    static void assertNoKeyMaterial(Run r, Path... keys) throws Exception {
        for (Path k : keys) {
            for (String line : Files.readAllLines(k)) {
                if (!line.startsWith("-----")) {
                    assertThat(r.all()).doesNotContain(line);
                }
            }
        }
        assertThat(r.all()).doesNotContain("PRIVATE KEY");
    }
}
