package me.loutres.juneau.admission;

/**
 * One webhook endpoint (SPEC §2.7).
 *
 * @param path        the HTTP path, e.g. {@code /validate/services}
 * @param webhookName the name in the webhook configuration, printed by kubectl on denial
 * @param mutating    true for the one mutating endpoint
 * @param resource    the plural resource it reviews, e.g. {@code services}
 */
public record Endpoint(String path, String webhookName, boolean mutating, String resource) {
}
