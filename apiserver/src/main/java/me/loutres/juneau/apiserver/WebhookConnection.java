package me.loutres.juneau.apiserver;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One kept-alive HTTPS/1.1 connection to the webhook, used by one call at a time: a POST written in one piece,
 * the answer read by its Content-Length or its chunks, every read bounded by the call's deadline.
 */
final class WebhookConnection implements Closeable {
    /** An answer larger than this is refused (an AdmissionReview answer is a few hundred bytes). */
    static final int MAX_BODY = 8 * 1024 * 1024;
    private static final int MAX_LINE = 16 * 1024;

    /** The status, the body, and whether the connection can carry the next request. */
    record Response(int status, byte[] body, boolean keepAlive) {
    }

    /** The connection was closed before a byte of the answer came: the request was not processed. */
    static final class StaleConnectionException extends IOException {
        StaleConnectionException(String message) {
            super(message);
        }
    }

    private final SSLSocket socket;
    private final InputStream raw;
    private final OutputStream out;
    private final String hostHeader;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int lim;
    private long deadline;
    private boolean answered;

    private WebhookConnection(SSLSocket socket, String hostHeader) throws IOException {
        this.socket = socket;
        this.raw = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.hostHeader = hostHeader;
    }

    static WebhookConnection open(SSLSocketFactory factory, String host, int port, Duration timeout)
            throws IOException {
        Socket plain = new Socket();
        SSLSocket tls = null;
        try {
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            tls = (SSLSocket) factory.createSocket(plain, host, port, true);
            SSLParameters params = tls.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host we called
            tls.setSSLParameters(params);
            tls.setSoTimeout((int) timeout.toMillis());
            tls.startHandshake();
            String hostHeader = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
            return new WebhookConnection(tls, hostHeader);
        } catch (IOException | RuntimeException e) {
            (tls != null ? tls : plain).close();
            throw e;
        }
    }

    /** True when the last answer was read to its end and nothing else came: the connection may be reused. */
    boolean clean() {
        return pos == lim;
    }

    Response post(String target, byte[] body, long deadlineNanos) throws IOException {
        deadline = deadlineNanos;
        pos = 0;
        lim = 0;
        answered = false;
        String statusLine = send(target, body);
        int status = status(statusLine);
        Head head = head(statusLine);
        byte[] answer;
        boolean keepAlive = head.keepAlive();
        if (head.chunked()) {
            answer = chunkedBody();
        } else if (head.length() >= 0) {
            if (head.length() > MAX_BODY) {
                throw new IOException("the webhook's answer is larger than " + MAX_BODY + " bytes");
            }
            answer = exactly((int) head.length());
        } else {
            answer = untilClosed();
            keepAlive = false;
        }
        return new Response(status, answer, keepAlive);
    }

    /** Writes the request and reads the status line. */
    private String send(String target, byte[] body) throws IOException {
        byte[] head = ("POST " + target + " HTTP/1.1\r\nHost: " + hostHeader + "\r\nContent-Type: application/json\r\n"
                + "Accept: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        try {
            socket.setSoTimeout(remainingMillis());
            out.write(request); // one write: one TLS record for a review below 16 KiB
            out.flush();
            return line();
        } catch (java.net.SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            if (!answered) {
                // a reused connection the webhook closed while idle ends here (reviews have no side effects)
                throw new StaleConnectionException("the connection was closed before an answer came: " + e);
            }
            throw e;
        }
    }

    /** What the answer's headers say about its body and the connection. */
    private record Head(long length, boolean chunked, boolean keepAlive) {
    }

    private Head head(String statusLine) throws IOException {
        long length = -1;
        boolean chunked = false;
        boolean keepAlive = !statusLine.startsWith("HTTP/1.0");
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed header line in the webhook's answer");
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> {
                    try {
                        length = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new IOException("malformed Content-Length in the webhook's answer: " + value);
                    }
                }
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> {
                    String v = value.toLowerCase(Locale.ROOT);
                    keepAlive = !v.contains("close") && (v.contains("keep-alive") || keepAlive);
                }
                default -> {
                }
            }
        }
        return new Head(length, chunked, keepAlive);
    }

    private static int status(String statusLine) throws IOException {
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new IOException("the webhook did not answer HTTP: " + statusLine);
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("the webhook did not answer HTTP: " + statusLine);
        }
    }

    private byte[] chunkedBody() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line();
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk in the webhook's answer");
            }
            if (size == 0) {
                for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                    // trailers carry nothing an AdmissionReview needs
                }
                return body.toByteArray();
            }
            if (size < 0 || body.size() + (long) size > MAX_BODY) {
                throw new IOException("the webhook's answer is larger than " + MAX_BODY + " bytes");
            }
            body.write(exactly(size));
            if (!line().isEmpty()) {
                throw new IOException("malformed chunk in the webhook's answer");
            }
        }
    }

    private byte[] exactly(int n) throws IOException {
        byte[] out = new byte[n];
        int done = 0;
        while (done < n) {
            if (pos == lim && fill() < 0) {
                throw new EOFException("the webhook closed the connection inside its answer");
            }
            int k = Math.min(n - done, lim - pos);
            System.arraycopy(buf, pos, out, done, k);
            pos += k;
            done += k;
        }
        return out;
    }

    private byte[] untilClosed() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (pos < lim || fill() >= 0) {
            if (body.size() + (long) (lim - pos) > MAX_BODY) {
                throw new IOException("the webhook's answer is larger than " + MAX_BODY + " bytes");
            }
            body.write(buf, pos, lim - pos);
            pos = lim;
        }
        return body.toByteArray();
    }

    /** One header line without its CRLF (ASCII). */
    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos == lim && fill() < 0) {
                throw new EOFException("the webhook closed the connection");
            }
            byte b = buf[pos++];
            if (b == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            if (sb.length() >= MAX_LINE) {
                throw new IOException("a header line of the webhook's answer is too long");
            }
            sb.append((char) (b & 0xff));
        }
    }

    private int fill() throws IOException {
        socket.setSoTimeout(remainingMillis());
        int n = raw.read(buf, 0, buf.length);
        answered |= n > 0;
        pos = 0;
        lim = Math.max(n, 0);
        return n;
    }

    private int remainingMillis() throws IOException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new java.net.SocketTimeoutException("no answer within the webhook timeout");
        }
        return (int) left;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a connection we give up on: nothing to do
        }
    }
}
