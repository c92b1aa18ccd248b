package me.loutres.juneau.webhook.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a request body up to a cap, counting the bytes actually received: a missing or false Content-Length cannot
 * make the server buffer more than the cap.
 */
public final class BoundedBody {
    private BoundedBody() {
    }

    /**
     * The whole body, or a 413 as soon as more than {@code maxBytes} arrive. {@code sizeHint} (Content-Length, -1 when
     * absent) only sizes the first buffer.
     */
    public static byte[] read(InputStream in, long sizeHint, int maxBytes) throws IOException, RejectedRequestException {
        if (sizeHint > maxBytes) {
            throw tooLarge(maxBytes);
        }
        byte[] buf = new byte[sizeHint > 0 ? (int) sizeHint : Math.min(8192, maxBytes)];
        int len = 0;
        while (true) {
            if (len == buf.length) {
                // full: probe one byte before growing, so a correct Content-Length costs no copy
                int next = in.read();
                if (next < 0) {
                    break;
                }
                if (len + 1 > maxBytes) {
                    throw tooLarge(maxBytes);
                }
                buf = Arrays.copyOf(buf, (int) Math.min(maxBytes, Math.max(16L, (long) buf.length * 2)));
                buf[len++] = (byte) next;
                continue;
            }
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) {
                break;
            }
            len += n;
        }
        if (len > maxBytes) {
            throw tooLarge(maxBytes);
        }
        return len == buf.length ? buf : Arrays.copyOf(buf, len);
    }

    /**
     * Reads and drops what is left of a refused body whose declared length is at most {@code limit}: a server that
     * answers and closes with a body still arriving resets the connection, and a client that sends its whole body
     * before it reads (kube-apiserver does) then sees the reset instead of the 413. Not read: a larger body and a
     * body of undeclared length (chunked: it may never end) — the answer goes out and the connection closes.
     *
     * @return whether the body was read to its end
     */
    public static boolean discardRest(InputStream in, long declaredLength, long limit) {
        if (declaredLength < 0 || declaredLength > limit) {
            return false;
        }
        byte[] sink = new byte[64 * 1024];
        long read = 0;
        try {
            for (int n = in.read(sink); n >= 0; n = in.read(sink)) {
                read += n;
                if (read > limit) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false; // the client went away: nobody is left to read the answer
        }
    }

    private static RejectedRequestException tooLarge(int maxBytes) {
        return new RejectedRequestException(413, "the request body is larger than " + describe(maxBytes)
                + "; an AdmissionReview this large is not served");
    }

    static String describe(int bytes) {
        return bytes % (1024 * 1024) == 0 ? (bytes / (1024 * 1024)) + " MiB" : bytes + " bytes";
    }
}
