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

    private static RejectedRequestException tooLarge(int maxBytes) {
        return new RejectedRequestException(413, "the request body is larger than " + describe(maxBytes)
                + "; an AdmissionReview this large is not served");
    }

    static String describe(int bytes) {
        return bytes % (1024 * 1024) == 0 ? (bytes / (1024 * 1024)) + " MiB" : bytes + " bytes";
    }
}
