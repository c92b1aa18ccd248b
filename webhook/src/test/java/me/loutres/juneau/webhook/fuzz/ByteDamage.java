package me.loutres.juneau.webhook.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Damage to a body's bytes after it was written. Positions are fractions of the length, so the same damage applies to
 * a body the minimiser made shorter.
 */
public record ByteDamage(Kind kind, double at, int value, byte[] replacement) {
    public enum Kind { NONE, TRUNCATE, FLIP, INVALID_UTF8, REPLACE, UTF16, BOM, TRAILING }

    public static final ByteDamage NONE = new ByteDamage(Kind.NONE, 0, 0, null);

    /** Whole bodies a client might send instead of a review. */
    private static final List<String> BODIES = List.of("", " ", "\n", "null", "[]", "{}", "\"AdmissionReview\"", "1",
            "true", "{\"apiVersion\":\"admission.k8s.io/v1\"}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":null}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                    + "\"operation\":\"CREATE\",\"object\":null}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                    + "\"operation\":\"CREATE\",\"object\":{}}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                    + "\"operation\":\"DELETE\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}{}",
            "<?xml version=\"1.0\"?><AdmissionReview/>", "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\n",
            "{\"a\":", "{\"request\":{\"uid\":\"", "\u0000\u0000\u0000", "{\"request\":[]}", "{'request':{}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"},"
                    + "\"request\":{\"uid\":\"v\"}}");

    public static ByteDamage random(SplittableRandom r) {
        Kind kind = Kind.values()[1 + r.nextInt(Kind.values().length - 1)];
        byte[] replacement = null;
        if (kind == Kind.REPLACE) {
            if (r.nextInt(4) == 0) {
                replacement = new byte[r.nextInt(1, 64)];
                for (int i = 0; i < replacement.length; i++) {
                    replacement[i] = (byte) r.nextInt(256);
                }
            } else {
                replacement = BODIES.get(r.nextInt(BODIES.size())).getBytes(StandardCharsets.UTF_8);
            }
        }
        return new ByteDamage(kind, r.nextDouble(), r.nextInt(256), replacement);
    }

    /** True when the damage may change what the request says (its uid is then unknown). */
    boolean changesContent() {
        return kind != Kind.NONE;
    }

    public byte[] apply(byte[] body) {
        int at = (int) Math.min(body.length, Math.floor(at() * body.length));
        return switch (kind) {
            case NONE -> body;
            case TRUNCATE -> Arrays.copyOf(body, at);
            case FLIP -> {
                byte[] copy = body.clone();
                if (copy.length > 0) {
                    copy[Math.min(at, copy.length - 1)] = (byte) value;
                }
                yield copy;
            }
            case INVALID_UTF8 -> splice(body, at, new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xED,
                    (byte) 0xA0, (byte) 0x80});
            case REPLACE -> replacement.clone();
            case UTF16 -> new String(body, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16);
            case BOM -> splice(body, 0, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
            case TRAILING -> splice(body, body.length, "}{\"x\":1}".getBytes(StandardCharsets.UTF_8));
        };
    }

    private static byte[] splice(byte[] body, int at, byte[] inserted) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + inserted.length);
        out.write(body, 0, at);
        out.write(inserted, 0, inserted.length);
        out.write(body, at, body.length - at);
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> "no byte damage";
            case TRUNCATE -> String.format("truncated at %.0f%%", at * 100);
            case FLIP -> String.format("byte at %.0f%% set to 0x%02x", at * 100, value);
            case INVALID_UTF8 -> String.format("invalid UTF-8 inserted at %.0f%%", at * 100);
            case REPLACE -> "body replaced (" + replacement.length + " bytes)";
            case UTF16 -> "re-encoded as UTF-16";
            case BOM -> "UTF-8 byte order mark prefixed";
            case TRAILING -> "a second JSON value appended";
        };
    }
}
