package me.loutres.juneau.webhook.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.http.AdmissionServlet;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/**
 * Everything the embedded server needs.
 *
 * @param certFile       PEM certificate chain (leaf first), reloaded when it changes
 * @param keyFile        PEM private key (PKCS#8, SEC1 EC or PKCS#1 RSA)
 * @param bindAddress    address to listen on ({@code 0.0.0.0} in a cluster, {@code 127.0.0.1} for local use)
 * @param port           TCP port; 0 picks a free one ({@link WebhookServer#start} returns it)
 * @param settings       admission settings (controller identities, reserved CIDRs)
 * @param viewSource     where the cluster view comes from
 * @param reloadInterval how often the PEM files are checked for a change
 * @param shutdownGrace  how long a stop waits for in-flight requests
 * @param maxBodyBytes   request body cap (413 above it)
 */
public record WebhookConfig(Path certFile, Path keyFile, String bindAddress, int port, AdmissionSettings settings,
                            ClusterViewSource viewSource, Duration reloadInterval, Duration shutdownGrace,
                            int maxBodyBytes) {
    public static final int DEFAULT_PORT = 9443;
    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(2);
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

    public WebhookConfig {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
        Objects.requireNonNull(viewSource, "viewSource");
        bindAddress = bindAddress == null ? "0.0.0.0" : bindAddress;
        settings = settings == null ? AdmissionSettings.defaults() : settings;
        reloadInterval = reloadInterval == null ? DEFAULT_RELOAD_INTERVAL : reloadInterval;
        shutdownGrace = shutdownGrace == null ? DEFAULT_SHUTDOWN_GRACE : shutdownGrace;
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not valid; use 1-65535 (or 0 for any free port)");
        }
        if (maxBodyBytes <= 0) {
            maxBodyBytes = AdmissionServlet.DEFAULT_MAX_BODY_BYTES;
        }
    }

    public static Builder builder(Path certFile, Path keyFile) {
        return new Builder(certFile, keyFile);
    }

    /** Defaults: port 9443 on all addresses, default settings, in-cluster view, 2 s reload, 10 s grace, 3 MiB. */
    public static final class Builder {
        private final Path certFile;
        private final Path keyFile;
        private String bindAddress = "0.0.0.0";
        private int port = DEFAULT_PORT;
        private AdmissionSettings settings = AdmissionSettings.defaults();
        private ClusterViewSource viewSource = new ClusterViewSource.InCluster();
        private Duration reloadInterval = DEFAULT_RELOAD_INTERVAL;
        private Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
        private int maxBodyBytes = AdmissionServlet.DEFAULT_MAX_BODY_BYTES;

        private Builder(Path certFile, Path keyFile) {
            this.certFile = certFile;
            this.keyFile = keyFile;
        }

        public Builder bindAddress(String value) {
            bindAddress = value;
            return this;
        }

        public Builder port(int value) {
            port = value;
            return this;
        }

        public Builder settings(AdmissionSettings value) {
            settings = value;
            return this;
        }

        public Builder viewSource(ClusterViewSource value) {
            viewSource = value;
            return this;
        }

        public Builder reloadInterval(Duration value) {
            reloadInterval = value;
            return this;
        }

        public Builder shutdownGrace(Duration value) {
            shutdownGrace = value;
            return this;
        }

        public Builder maxBodyBytes(int value) {
            maxBodyBytes = value;
            return this;
        }

        public WebhookConfig build() {
            return new WebhookConfig(certFile, keyFile, bindAddress, port, settings, viewSource, reloadInterval,
                    shutdownGrace, maxBodyBytes);
        }
    }
}
