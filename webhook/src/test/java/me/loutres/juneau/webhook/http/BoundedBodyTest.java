package me.loutres.juneau.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoundedBodyTest {
    /** Hands out at most one byte per read, like a slow network. */
    private static InputStream trickle(byte[] data) {
        return new FilterInputStream(new ByteArrayInputStream(data)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(1, len));
            }
        };
    }

    private static byte[] bytes(int n) {
        byte[] data = new byte[n];
        Arrays.fill(data, (byte) 'x');
        return data;
    }

    @ParameterizedTest(name = "size {0}, Content-Length {1}, cap {2}")
    @CsvSource({
            "0, -1, 100",
            "0, 0, 100",
            "1, -1, 100",
            "100, -1, 100",
            "100, 100, 100",
            "99, 100, 100",   // Content-Length overstated: what arrives counts
            "100, 10, 100",   // understated
            "20000, -1, 3145728",
            "8192, -1, 3145728",
            "8193, -1, 3145728",
    })
    void readsEveryByteUpToTheCap(int size, long declared, int cap) throws Exception {
        byte[] data = bytes(size);
        assertThat(BoundedBody.read(new ByteArrayInputStream(data), declared, cap)).isEqualTo(data);
        assertThat(BoundedBody.read(trickle(data), declared, cap)).isEqualTo(data);
    }

    @ParameterizedTest(name = "size {0}, Content-Length {1}, cap {2}")
    @CsvSource({
            "101, -1, 100",
            "101, 100, 100",
            "101, 101, 100",
            "5000, 10, 100",
            "3145729, -1, 3145728",
    })
    void refusesOneBytePastTheCap(int size, long declared, int cap) {
        assertThatThrownBy(() -> BoundedBody.read(new ByteArrayInputStream(bytes(size)), declared, cap))
                .isInstanceOfSatisfying(RejectedRequestException.class, e -> assertThat(e.status()).isEqualTo(413));
        assertThatThrownBy(() -> BoundedBody.read(trickle(bytes(size)), declared, cap))
                .isInstanceOf(RejectedRequestException.class);
    }

    @ParameterizedTest
    @CsvSource({"3145728, 3 MiB", "4096, 4096 bytes"})
    void theReasonStatesTheCap(int cap, String text) {
        assertThatThrownBy(() -> BoundedBody.read(new ByteArrayInputStream(bytes(cap + 1)), -1, cap))
                .hasMessage("the request body is larger than " + text + "; an AdmissionReview this large is not served");
    }
}
