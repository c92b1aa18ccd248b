package me.loutres.juneau.webhook.http;

import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** One request/response pair for calling a servlet directly: Mockito request, recording response. */
final class ServletExchange {
    final HttpServletRequest request = mock(HttpServletRequest.class);
    final HttpServletResponse response = mock(HttpServletResponse.class);
    int status = 200;
    String contentType;
    final Map<String, String> headers = new HashMap<>();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    /** Bytes the servlet pulled from the request body. */
    long bytesRead;

    static ServletExchange post(String path, String contentType, byte[] content) {
        return new ServletExchange("POST", path, contentType, new java.io.ByteArrayInputStream(content), content.length);
    }

    static ServletExchange post(String path, String json) {
        return post(path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    ServletExchange(String method, String path, String contentType, InputStream content, long contentLength) {
        when(request.getMethod()).thenReturn(method);
        when(request.getServletPath()).thenReturn(path);
        when(request.getContentType()).thenReturn(contentType);
        when(request.getContentLengthLong()).thenReturn(contentLength);
        try {
            when(request.getInputStream()).thenReturn(new CountingInput(content));
            when(response.getOutputStream()).thenReturn(new RecordingOutput());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        doAnswer(inv -> status = inv.getArgument(0)).when(response).setStatus(anyInt());
        doAnswer(inv -> contentType(inv.getArgument(0))).when(response).setContentType(anyString());
        doAnswer(inv -> headers.put(inv.getArgument(0), inv.getArgument(1))).when(response).setHeader(anyString(), anyString());
        doAnswer(inv -> {
            status = 200;
            headers.clear();
            body.reset();
            return null;
        }).when(response).reset();
    }

    private Object contentType(String value) {
        contentType = value;
        return null;
    }

    String text() {
        return body.toString(StandardCharsets.UTF_8);
    }

    private final class CountingInput extends ServletInputStream {
        private final InputStream in;

        CountingInput(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                bytesRead++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                bytesRead += n;
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return false;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener readListener) {
            throw new UnsupportedOperationException();
        }
    }

    private final class RecordingOutput extends ServletOutputStream {
        @Override
        public void write(int b) {
            body.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            body.write(b, off, len);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener writeListener) {
            throw new UnsupportedOperationException();
        }
    }
}
