package me.loutres.juneau.webhook.http;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Every other path: 404 with one line listing what is served, instead of a container's default servlet (which would
 * answer 405 to a POST, or try to serve files).
 */
public final class NotFoundServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final String served;

    public NotFoundServlet(List<String> servedPaths) {
        this.served = String.join(", ", servedPaths);
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
        byte[] body = ("nothing is served at " + AdmissionCodec.oneLine(path, 100) + "; served paths: " + served + "\n")
                .getBytes(StandardCharsets.UTF_8);
        resp.setStatus(404);
        resp.setContentType("text/plain; charset=utf-8");
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }
}
