package me.loutres.juneau.webhook;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.webhook.http.AdmissionServlet;
import me.loutres.juneau.webhook.http.WebhookWebApp;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the webapp. Declared in the WAR's {@code web.xml}, it builds the rules and the cluster view from context
 * init parameters, falling back to environment variables ({@code juneau.webhook.cluster-state} /
 * {@code JUNEAU_WEBHOOK_CLUSTER_STATE}, {@code juneau.webhook.kubeconfig}, {@code juneau.webhook.controller-usernames},
 * {@code juneau.webhook.reserved-cidrs}; lists comma-separated; without a state file or kubeconfig it uses the
 * in-cluster service account). The embedded launcher hands it a app it built itself, so both serve the same webapp.
 */
public final class WebhookContextListener implements ServletContextListener {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookContextListener.class);
    public static final String RUNTIME_ATTRIBUTE = WebhookApp.class.getName();
    public static final String CLUSTER_STATE = "juneau.webhook.cluster-state";
    public static final String KUBECONFIG = "juneau.webhook.kubeconfig";
    public static final String CONTROLLER_USERNAMES = "juneau.webhook.controller-usernames";
    /** Node agent identities (docs/admission.md), comma-separated; default the juneau-agent service account. */
    public static final String AGENT_USERNAMES = "juneau.webhook.agent-usernames";
    public static final String RESERVED_CIDRS = "juneau.webhook.reserved-cidrs";
    /** "true": unclassed LoadBalancer Services are Juneau's too, as with the controller's --manage-unclassed. */
    public static final String MANAGE_UNCLASSED = "juneau.webhook.manage-unclassed";

    private final WebhookApp given;
    private WebhookApp built;

    /** For a container deploying the WAR. */
    public WebhookContextListener() {
        this(null);
    }

    /** For the embedded launcher, which owns (and closes) the app. */
    public WebhookContextListener(WebhookApp app) {
        this.given = app;
    }

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        WebhookApp app = given;
        if (app == null) {
            // deployed as a WAR: the webhook's logging unless the container or the operator configured logback (a
            // logback.xml inside the WAR would also land in the classes jar the cli uses, and clash with its own)
            me.loutres.juneau.webhook.server.WebhookLogging.configureUnlessConfigured();
            try {
                built = fromParameters(name -> parameter(context, name));
            } catch (Exception e) {
                // the container reports a failed deployment; the message is the one line an operator needs
                LOG.error("the Juneau webhook cannot start: {}", e.getMessage());
                throw new IllegalStateException("the Juneau webhook cannot start: " + e.getMessage(), null);
            }
            app = built;
        }
        context.setAttribute(RUNTIME_ATTRIBUTE, app);
        WebhookWebApp.register(context, app);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (built != null) {
            built.close();
            built = null;
        }
    }

    /** The app described by named parameters; {@code lookup} answers null for an absent one. */
    public static WebhookApp fromParameters(UnaryOperator<String> lookup) throws Exception {
        String state = lookup.apply(CLUSTER_STATE);
        String kubeconfig = lookup.apply(KUBECONFIG);
        if (state != null && kubeconfig != null) {
            throw new IllegalArgumentException(CLUSTER_STATE + " and " + KUBECONFIG + " are both set; set one");
        }
        ClusterViewSource source = state != null ? new ClusterViewSource.StateFile(Path.of(state))
                : kubeconfig != null ? new ClusterViewSource.Kubeconfig(Path.of(kubeconfig))
                : new ClusterViewSource.InCluster();
        Set<String> users = new LinkedHashSet<>(list(lookup.apply(CONTROLLER_USERNAMES)));
        AdmissionSettings settings = new AdmissionSettings(users, list(lookup.apply(RESERVED_CIDRS)),
                new LinkedHashSet<>(list(lookup.apply(AGENT_USERNAMES))), manageUnclassed(lookup.apply(MANAGE_UNCLASSED)));
        return WebhookAssembly.create(settings, source, AdmissionServlet.DEFAULT_MAX_BODY_BYTES);
    }

    /** A typo must not silently leave the unclassed Services unreviewed: only true, false or nothing. */
    static ManagedServices manageUnclassed(String value) {
        if (value == null || value.equalsIgnoreCase("false")) {
            return ManagedServices.CLASSED;
        }
        if (value.equalsIgnoreCase("true")) {
            return ManagedServices.UNCLASSED_TOO;
        }
        throw new IllegalArgumentException(MANAGE_UNCLASSED + " is \"" + value + "\"; accepted: true or false");
    }

    private static String parameter(ServletContext context, String name) {
        String value = context.getInitParameter(name);
        if (value == null || value.isBlank()) {
            value = System.getenv(name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static List<String> list(String csv) {
        return csv == null ? List.of() : Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
