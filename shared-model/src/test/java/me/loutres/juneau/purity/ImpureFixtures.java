package me.loutres.juneau.purity;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.FileInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;

/** Classes that break one purity rule each; {@link PurityTest} checks that its rules catch them. */
final class ImpureFixtures {
    private ImpureFixtures() {
    }

    static final class Http {
        Object call() {
            return HttpClient.newHttpClient().followRedirects() + URI.create("https://example.invalid").toString();
        }
    }

    static final class Client {
        Object call(KubernetesClient client) {
            return client.services().list();
        }
    }

    /** Outside the mapper holder even the serialization utilities count as the client. */
    static final class Serializes {
        Object mapper() {
            return io.fabric8.kubernetes.client.utils.Serialization.jsonMapper();
        }
    }

    static final class Millis {
        long now() {
            return System.currentTimeMillis();
        }
    }

    static final class Nanos {
        long now() {
            return System.nanoTime();
        }
    }

    static final class InstantNow {
        Instant now() {
            return Instant.now();
        }
    }

    static final class UsesClock {
        Instant now(Clock clock) {
            return clock.instant();
        }
    }

    static final class ReadsFile {
        String read() throws IOException {
            return Files.readString(Path.of("x.yaml"));
        }
    }

    static final class OpensStream {
        int read() throws IOException {
            try (FileInputStream in = new FileInputStream("x.yaml")) {
                return in.read();
            }
        }
    }

    static final class Resource extends CustomResource<Void, Void> {
    }

    /** A planner that allocates instead of asking the view what the allocator would answer. */
    static final class Allocates {
        Object plan(me.loutres.juneau.allocation.Allocator allocator) {
            return allocator.allocate("ns/web", java.util.List.of("pool-a"), java.util.OptionalLong.empty());
        }
    }
}
