package me.loutres.juneau.webhook.fuzz;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.WebhookRuntime;
import me.loutres.juneau.webhook.WebhookRuntimes;
import me.loutres.juneau.webhook.http.AdmissionServlet;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/**
 * The webhook's admission servlet in-process, built as the server builds it (real rules, the offline cluster state of
 * the ITs), called with a minimal request/response pair: the real envelope at a rate a fuzzer needs. Anything the
 * servlet throws is what a container would answer with 500.
 */
public final class ServletTarget implements FuzzRunner.Target, AutoCloseable {
    private final WebhookRuntime runtime;
    private final HttpServlet servlet;

    public ServletTarget(Path dir) throws Exception {
        Path state = dir.resolve("cluster-state.yaml");
        try (var in = ServletTarget.class.getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        runtime = WebhookRuntimes.create(new AdmissionSettings(null, java.util.List.of("10.96.0.0/12")),
                new ClusterViewSource.StateFile(state), AdmissionServlet.DEFAULT_MAX_BODY_BYTES);
        servlet = new AdmissionServlet(runtime.reviewer(), runtime.codec(), runtime.webhookByPath(), runtime.metrics(),
                runtime.maxBodyBytes());
    }

    @Override
    public FuzzOracle.Answer send(FuzzCase c) throws Exception {
        return answer(c.method(), c.path(), c.contentType(), c.body());
    }

    /** One request as given. */
    public FuzzOracle.Answer answer(String method, String path, String contentType, byte[] body) throws Exception {
        Exchange exchange = new Exchange(method, path, contentType, body);
        try {
            servlet.service(exchange.request(), exchange.response());
        } catch (Exception escaped) {
            // a container turns an exception out of service() into a 500 with its own error page
            return new FuzzOracle.Answer(500, "text/html", ("500 " + escaped).getBytes());
        }
        return new FuzzOracle.Answer(exchange.status, exchange.contentType, exchange.out.toByteArray());
    }

    @Override
    public void close() {
        runtime.close();
    }

    /** The few request and response methods a servlet calls, answered by dynamic proxies. */
    static final class Exchange {
        final String method;
        final String path;
        final String requestContentType;
        final byte[] body;
        int status = 200;
        String contentType;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private boolean committed;

        Exchange(String method, String path, String contentType, byte[] body) {
            this.method = method;
            this.path = path;
            this.requestContentType = contentType;
            this.body = body;
        }

        HttpServletRequest request() {
            ServletInputStream in = new ServletInputStream() {
                private final ByteArrayInputStream bytes = new ByteArrayInputStream(body);

                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return bytes.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException();
                }
            };
            return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                        case "getMethod" -> method;
                        case "getServletPath", "getRequestURI" -> path;
                        case "getContentType" -> requestContentType;
                        case "getContentLengthLong" -> (long) body.length;
                        case "getContentLength" -> body.length;
                        case "getInputStream" -> in;
                        case "getHeader" -> null;
                        case "toString" -> "request " + method + " " + path;
                        default -> throw new UnsupportedOperationException("request." + m.getName());
                    });
        }

        HttpServletResponse response() {
            ServletOutputStream stream = new ServletOutputStream() {
                @Override
                public void write(int b) {
                    committed = true;
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    committed = true;
                    out.write(b, off, len);
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    throw new UnsupportedOperationException();
                }
            };
            return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> {
                        switch (m.getName()) {
                            case "setStatus" -> status = (Integer) args[0];
                            case "setContentType" -> contentType = (String) args[0];
                            case "getOutputStream" -> {
                                return stream;
                            }
                            case "isCommitted" -> {
                                return committed;
                            }
                            case "reset" -> {
                                status = 200;
                                out.reset();
                                committed = false;
                            }
                            case "setContentLength", "setContentLengthLong", "setHeader", "addHeader",
                                    "setCharacterEncoding" -> {
                            }
                            case "toString" -> {
                                return "response";
                            }
                            default -> throw new UnsupportedOperationException("response." + m.getName());
                        }
                        return null;
                    });
        }
    }
}
