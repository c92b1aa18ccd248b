package me.loutres.juneau.webhook;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * One HTTPS connection driven byte by byte: for what an HTTP client library hides (a fresh handshake per request, a
 * body cut off mid-way, a lying Content-Length).
 */
public final class RawHttps implements Closeable {
    public record Response(int status, Map<String, String> headers, String body) {
    }

    private final SSLSocket socket;
    private final OutputStream out;
    private final InputStream in;

    public RawHttps(SSLContext context, int port) throws IOException {
        socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(20_000);
        socket.startHandshake();
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    public X509Certificate peer() throws IOException {
        return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }

    public RawHttps send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.UTF_8));
    }

    public RawHttps send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    public static String head(String method, String path, String contentType, long contentLength) {
        return method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                + (contentLength < 0 ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + contentLength + "\r\n")
                + "\r\n";
    }

    /** A whole POST with a correct Content-Length, then its response. */
    public Response post(String path, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        send(head("POST", path, "application/json", body.length));
        send(body);
        return read();
    }

    public Response read() throws IOException {
        String statusLine = line();
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l = line(); !l.isEmpty(); l = line()) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (headers.containsKey("content-length")) {
            body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(line().strip(), 16); size > 0; size = Integer.parseInt(line().strip(), 16)) {
                body.write(in.readNBytes(size));
                line();
            }
            line();
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        if (b == -1 && line.size() == 0) {
            throw new IOException("connection closed by the server");
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
