package me.loutres.juneau.webhook.bench;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * One kept-alive HTTPS/1.1 connection with as little client work per request as possible (one write, buffer-level
 * response parsing), so the machine's two cores go to the server under test rather than to the load generator.
 */
final class HttpsConnection implements Closeable {
    private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final SSLSocket socket;
    private final OutputStream out;
    private final InputStream in;
    private byte[] buf = new byte[16 * 1024];
    /** Start and length of the last response body in {@link #buffer()}. */
    int bodyStart;
    int bodyLength;

    HttpsConnection(SSLContext context, int port) throws IOException {
        socket = (SSLSocket) context.getSocketFactory().createSocket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        socket.startHandshake();
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    byte[] buffer() {
        return buf;
    }

    /** Sends one request and reads its whole response; returns the HTTP status. */
    int exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        int len = 0;
        int headerEnd = -1;
        while (headerEnd < 0) {
            if (len == buf.length) {
                buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            }
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) {
                throw new IOException("connection closed by the server");
            }
            int from = Math.max(0, len - 3);
            len += n;
            for (int i = from; i + 3 < len; i++) {
                if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n') {
                    headerEnd = i + 4;
                    break;
                }
            }
        }
        int status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
        int contentLength = contentLength(headerEnd);
        int total = headerEnd + contentLength;
        if (total > buf.length) {
            buf = java.util.Arrays.copyOf(buf, total);
        }
        while (len < total) {
            int n = in.read(buf, len, total - len);
            if (n < 0) {
                throw new IOException("connection closed mid-response");
            }
            len += n;
        }
        bodyStart = headerEnd;
        bodyLength = contentLength;
        return status;
    }

    private int contentLength(int headerEnd) throws IOException {
        outer:
        for (int i = 0; i + CONTENT_LENGTH.length < headerEnd; i++) {
            for (int j = 0; j < CONTENT_LENGTH.length; j++) {
                if (Character.toLowerCase(buf[i + j]) != CONTENT_LENGTH[j]) {
                    continue outer;
                }
            }
            int k = i + CONTENT_LENGTH.length;
            while (buf[k] == ' ') {
                k++;
            }
            int value = 0;
            while (buf[k] >= '0' && buf[k] <= '9') {
                value = value * 10 + (buf[k++] - '0');
            }
            return value;
        }
        throw new IOException("response without Content-Length");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
