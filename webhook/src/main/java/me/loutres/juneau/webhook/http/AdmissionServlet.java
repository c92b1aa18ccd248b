package me.loutres.juneau.webhook.http;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.webhook.Reviewer;
import me.loutres.juneau.webhook.WebhookMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one admission envelope (docs/admission.md) for every webhook path: it alone checks method, content type and size,
 * decodes, echoes the uid and the review's apiVersion/kind, and encodes. The rules behind {@link Reviewer} never see
 * HTTP. A client's mistake gets its 4xx and one line of text; nothing here answers 5xx or prints a stack trace.
 */
public final class AdmissionServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    /** One line per request at DEBUG (path, code, verdict, uid, time); never bodies. */
    private static final Logger ACCESS = LoggerFactory.getLogger("me.loutres.juneau.webhook.access");
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionServlet.class);
    public static final int DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;
    /** A refused body up to this size is read to its end so the client reads the 413 (BoundedBody#discardRest). */
    static final long DISCARD_LIMIT_BYTES = 16L * 1024 * 1024;
    /** Longest status.message sent back; longer ones are cut (and say so). */
    public static final int MAX_MESSAGE_CHARS = 8 * 1024;
    static final int MAX_WARNINGS = 20;
    static final int MAX_WARNING_CHARS = 1024;

    private final transient Reviewer reviewer;
    private final transient AdmissionCodec codec;
    private final Map<String, String> webhookByPath;
    /** The paths whose rules never read metadata.managedFields (the Service ones): it is not built for them. */
    private final java.util.Set<String> withoutManagedFields;
    private final transient WebhookMetrics metrics;
    private final int maxBodyBytes;

    /**
     * @param webhookByPath every served path and the webhook name its denials are counted under
     */
    public AdmissionServlet(Reviewer reviewer, AdmissionCodec codec, Map<String, String> webhookByPath,
                            WebhookMetrics metrics, int maxBodyBytes) {
        this.reviewer = reviewer;
        this.codec = codec;
        this.webhookByPath = Map.copyOf(webhookByPath);
        this.withoutManagedFields = webhookByPath.keySet().stream()
                .filter(p -> AdmissionEngine.endpoint(p).map(e -> !e.readsManagedFields()).orElse(false))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long start = System.nanoTime();
        String path = req.getServletPath();
        int status;
        String verdict;
        String uid = null;
        try {
            if (!webhookByPath.containsKey(path)) {
                throw new RejectedRequestException(404, "no admission webhook is served at " + AdmissionCodec.oneLine(path, 100));
            }
            AdmissionCodec.Decoded decoded = decode(req, path);
            uid = decoded.request().getUid();
            AdmissionResponse response = bounded(reviewSafely(path, decoded.request()));
            response.setUid(uid);
            boolean allowed = Boolean.TRUE.equals(response.getAllowed());
            if (!allowed) {
                metrics.denial(webhookByPath.get(path));
            }
            byte[] body = codec.encode(decoded, response);
            resp.setStatus(200);
            resp.setContentType("application/json");
            resp.setContentLength(body.length);
            resp.getOutputStream().write(body);
            status = 200;
            verdict = allowed ? (response.getPatch() != null ? "patched" : "allowed") : "denied";
        } catch (RejectedRequestException rejected) {
            status = rejected.status();
            verdict = "rejected";
            if (status == 413) {
                // the client may still be sending: read the rest (up to a bound) so that it reads the 413
                BoundedBody.discardRest(req.getInputStream(), req.getContentLengthLong(), DISCARD_LIMIT_BYTES);
            }
            reject(resp, rejected);
        }
        long nanos = System.nanoTime() - start;
        metrics.request(webhookByPath.containsKey(path) ? path : "unknown", status, nanos);
        if (ACCESS.isDebugEnabled()) {
            ACCESS.debug("{} {} {} {} uid={} {}us", req.getMethod(), path, status, verdict, uid, nanos / 1000);
        }
    }

    private AdmissionCodec.Decoded decode(HttpServletRequest req, String path) throws RejectedRequestException {
        if (!"POST".equals(req.getMethod())) {
            throw new RejectedRequestException(405, "method " + AdmissionCodec.oneLine(req.getMethod(), 20)
                    + " is not allowed on " + path + "; send the AdmissionReview with POST");
        }
        String contentType = req.getContentType();
        if (!isJson(contentType)) {
            throw new RejectedRequestException(415, (contentType == null ? "the Content-Type header is missing"
                    : "Content-Type \"" + AdmissionCodec.oneLine(contentType, 80) + "\" is not served")
                    + "; send application/json");
        }
        byte[] body;
        try {
            body = BoundedBody.read(req.getInputStream(), req.getContentLengthLong(), maxBodyBytes);
        } catch (IOException broken) {
            // a body cut short or mis-framed by the client; there may be nobody left to read this answer
            throw new RejectedRequestException(400, "the request body could not be read completely");
        }
        return codec.decode(body, !withoutManagedFields.contains(path));
    }

    private AdmissionResponse reviewSafely(String path, AdmissionRequest request) {
        try {
            AdmissionResponse response = reviewer.review(path, request);
            if (response == null) {
                throw new IllegalStateException("the reviewer returned no response");
            }
            return response;
        } catch (RuntimeException defect) {
            // a defect of the rules, not of the request: deny with a reason kubectl shows, keep the detail in our log
            LOG.error("reviewing uid {} on {} failed; denied the request", request.getUid(), path, defect);
            AdmissionResponse errored = new AdmissionResponse();
            errored.setAllowed(false);
            errored.setStatus(new StatusBuilder().withCode(500).withReason("InternalError")
                    .withMessage("the Juneau webhook failed to review this request (uid " + request.getUid()
                            + "); see the webhook log").build());
            return errored;
        }
    }

    /**
     * A verdict's texts cut to what a person reads (kubectl prints all of it, the API server stores warnings in
     * headers): a rule that quotes a megabyte-long value must not send it back, once per problem.
     */
    static AdmissionResponse bounded(AdmissionResponse response) {
        if (response.getStatus() != null && response.getStatus().getMessage() != null
                && response.getStatus().getMessage().length() > MAX_MESSAGE_CHARS) {
            String message = response.getStatus().getMessage();
            response.getStatus().setMessage(message.substring(0, MAX_MESSAGE_CHARS)
                    + "... (" + message.length() + " characters in all; shorten the values it quotes)");
        }
        if (response.getWarnings() != null) {
            response.setWarnings(response.getWarnings().stream().limit(MAX_WARNINGS)
                    .map(w -> w == null || w.length() <= MAX_WARNING_CHARS ? w : w.substring(0, MAX_WARNING_CHARS) + "...")
                    .toList());
        }
        return response;
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String media = (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
        return media.equals("application/json") || (media.startsWith("application/") && media.endsWith("+json"));
    }

    private static void reject(HttpServletResponse resp, RejectedRequestException rejected) throws IOException {
        if (resp.isCommitted()) {
            return;
        }
        resp.reset();
        resp.setStatus(rejected.status());
        if (rejected.status() == 405) {
            resp.setHeader("Allow", "POST");
        }
        if (rejected.status() == 413) {
            // the rest of the body is not read: the connection cannot be reused
            resp.setHeader("Connection", "close");
        }
        byte[] body = (rejected.reason() + "\n").getBytes(StandardCharsets.UTF_8);
        resp.setContentType("text/plain; charset=utf-8");
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }
}
