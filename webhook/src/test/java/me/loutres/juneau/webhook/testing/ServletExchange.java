package me.loutres.juneau.webhook.testing;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * One request/response pair for calling a servlet in-process, without a container: the request answers what the
 * webhook's servlets read, the response records what they write. Any other call fails with
 * UnsupportedOperationException, so a servlet that starts relying on more of the servlet API shows it in its tests and
 * in the fuzz harness instead of receiving silent defaults. Built from dynamic proxies: the fuzz harness makes one per
 * case, thousands per run.
 */
public final class ServletExchange {
    private final String method;
    private final String path;
    private final String requestContentType;
    private final long contentLength;
    private final CountingInput in;
    private final RecordingOutput out = new RecordingOutput();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final Map<String, String> headers = new HashMap<>();
    private int status = 200;
    private String contentType;
    private long bytesRead;
    private boolean committed;

    /** A request of {@code contentLength} declared bytes (-1: not declared) read from {@code content}. */
    public ServletExchange(String method, String path, String contentType, InputStream content, long contentLength) {
        this.method = method;
        this.path = path;
        this.requestContentType = contentType;
        this.contentLength = contentLength;
        this.in = new CountingInput(content);
    }

    /** A request whose declared length is that of {@code content}. */
    public static ServletExchange of(String method, String path, String contentType, byte[] content) {
        return new ServletExchange(method, path, contentType, new ByteArrayInputStream(content), content.length);
    }

    public static ServletExchange post(String path, String contentType, byte[] content) {
        return of("POST", path, contentType, content);
    }

    public static ServletExchange post(String path, String json) {
        return post(path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    public HttpServletRequest request() {
        return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getServletPath", "getRequestURI" -> path;
                    case "getPathInfo", "getHeader" -> null;
                    case "getContentType" -> requestContentType;
                    case "getContentLengthLong" -> contentLength;
                    case "getContentLength" -> contentLength > Integer.MAX_VALUE ? -1 : (int) contentLength;
                    case "getInputStream" -> in;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "request " + method + " " + path;
                    default -> throw new UnsupportedOperationException("request." + m.getName());
                });
    }

    public HttpServletResponse response() {
        return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "setStatus" -> status = (Integer) args[0];
                        case "setContentType" -> contentType = (String) args[0];
                        case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                        case "addHeader" -> headers.merge((String) args[0], (String) args[1], (a, b) -> a + ", " + b);
                        case "setContentLength", "setContentLengthLong", "setCharacterEncoding" -> {
                        }
                        case "getOutputStream" -> {
                            return out;
                        }
                        case "isCommitted" -> {
                            return committed;
                        }
                        case "reset" -> {
                            status = 200;
                            contentType = null;
                            headers.clear();
                            body.reset();
                            committed = false;
                        }
                        case "hashCode" -> {
                            return System.identityHashCode(proxy);
                        }
                        case "equals" -> {
                            return proxy == args[0];
                        }
                        case "toString" -> {
                            return "response";
                        }
                        default -> throw new UnsupportedOperationException("response." + m.getName());
                    }
                    return null;
                });
    }

    public int status() {
        return status;
    }

    public String contentType() {
        return contentType;
    }

    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    public byte[] body() {
        return body.toByteArray();
    }

    public String text() {
        return body.toString(StandardCharsets.UTF_8);
    }

    /** Bytes the servlet pulled from the request body. */
    public long bytesRead() {
        return bytesRead;
    }

    private final class CountingInput extends ServletInputStream {
        private final InputStream source;
        private boolean ended;

        CountingInput(InputStream source) {
            this.source = source;
        }

        @Override
        public int read() throws IOException {
            int b = source.read();
            if (b >= 0) {
                bytesRead++;
            } else {
                ended = true;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = source.read(b, off, len);
            if (n > 0) {
                bytesRead += n;
            } else if (n < 0) {
                ended = true;
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return ended;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            // the servlets read their body blocking; asynchronous reads are not modelled (see the class comment)
            throw new UnsupportedOperationException("request input: setReadListener");
        }
    }

    private final class RecordingOutput extends ServletOutputStream {
        @Override
        public void write(int b) {
            committed = true;
            body.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            committed = true;
            body.write(b, off, len);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            // the servlets write blocking; asynchronous writes are not modelled (see the class comment)
            throw new UnsupportedOperationException("response output: setWriteListener");
        }
    }
}
