package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.arp.AnnounceSchedule;
import me.loutres.juneau.agent.arp.ArpFrame;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.apiserver.RequestHook;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.runtime.ops.Logging;
import me.loutres.juneau.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 14 item 2 (and issue 10 item 2) for the agent, against the local API server stopped and started again on
 * one port: started while it is down, the agent retries (alive, not ready) and says so once; once it is up the
 * agent lists, becomes ready and announces; when it goes away mid-run the agent keeps answering ARP for what it
 * owns, stays alive and says so once; when it comes back (with an empty store, as after a restore) the agent
 * follows it: its Lease, the status, the VIP that appeared meanwhile and the one that is gone. The logging is the shipped default
 * ({@link Logging#quiet}), and no line of it carries a stack trace.
 */
class ApiServerOutageMockTest {
    static final MacAddress MAC = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress CLIENT_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final String VIP = "198.18.0.100";
    static final String NEW_VIP = "198.18.0.101";
    static final String OLD_VIP = "198.18.0.102";
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MAC,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);

    private final FakeWire wire = new FakeWire();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private LocalApiServer server;
    private NodeAgent agent;
    private KubernetesClient agentClient;

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (agentClient != null) {
            agentClient.close();
        }
        if (server != null) {
            server.close();
        }
        LoggerContext context = root.getLoggerContext();
        context.reset();
        new ContextInitializer(context).autoConfig();
    }

    @Test
    void startsWithTheApiServerDownBecomesReadyWhenItIsUpAndKeepsItsVipsThroughAnOutage() throws Exception {
        // a port and the process's CA (a local API server started again on a port serves the same certificate)
        LocalApiServer probe = LocalApiServer.start(0);
        int port = probe.port();
        String ca = probe.caData();
        probe.close();
        shippedLogging();
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:" + port)
                .withCaCertData(ca).withOauthToken(Identities.agentToken("node-a")).withOnlyHttpWatches(true)
                .withRequestRetryBackoffLimit(0).withConnectionTimeout(500).withWatchReconnectInterval(200).build();
        agentClient = new KubernetesClientBuilder().withConfig(config).build();
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofMillis(500), Duration.ofSeconds(30)));
        agent = NodeAgent.start(agentClient, options, wire, () -> List.of(ETH0));

        // down from the start: retrying, alive, not ready, said once
        Eventually.until("the outage at start is said", () -> count("cannot reach the API server") == 1);
        Thread.sleep(1_500); // several retries of the watch and the Lease
        assertThat(agent.healthProblem()).isNull();
        assertThat(agent.readinessProblem()).contains("first list");
        assertThat(count("cannot reach the API server")).as("one line per outage, not per retry").isEqualTo(1);

        // up: the agent lists, becomes ready, announces and reports
        server = LocalApiServer.start(port);
        advertise(server, "web", VIP);
        advertise(server, "old", OLD_VIP);
        Eventually.until("ready once the API server is up", () -> agent.readinessProblem() == null);
        eventually(() -> assertThat(agent.answering()).containsOnlyKeys(Ipv4.parse(VIP), Ipv4.parse(OLD_VIP)));
        assertThat(wire.awaitSent("eth0", 4)).contains(
                ArpFrame.gratuitousRequest(MAC, Ipv4.parse(VIP)), ArpFrame.gratuitousReply(MAC, Ipv4.parse(VIP)),
                ArpFrame.gratuitousRequest(MAC, Ipv4.parse(OLD_VIP)), ArpFrame.gratuitousReply(MAC, Ipv4.parse(OLD_VIP)));
        eventually(() -> assertThat(announced(server, "web")).isEqualTo("True"));
        eventually(() -> assertThat(lease(server)).isNotNull());
        Eventually.until("the recovery is said once", () -> count("the API server answers again") == 1);
        // the gains' gratuitous ARP rounds run for 5 s; on a fast run their tail would land after the second
        // outage and look like a second announcement of the VIP kept through it
        int rounds = AnnounceSchedule.DEFAULT.offsets().size();
        Eventually.until("the gains' gratuitous ARP rounds are over",
                () -> gratuitous(VIP) >= 2 * rounds && gratuitous(OLD_VIP) >= 2 * rounds);

        // gone mid-run: the VIP is still answered, the agent alive, the outage said once
        server.close();
        server = null;
        Eventually.until("the outage mid-run is said", () -> count("cannot reach the API server") == 2);
        Thread.sleep(1_500);
        assertThat(answers(VIP)).as("answering from memory while the API server is away").isTrue();
        assertThat(agent.answering()).containsOnlyKeys(Ipv4.parse(VIP), Ipv4.parse(OLD_VIP));
        assertThat(agent.healthProblem()).isNull();
        assertThat(count("cannot reach the API server")).isEqualTo(2);

        // back, with an empty store: the Lease is written again, the watch resumes, the agent sees that its cache
        // holds what the server no longer has ("old") and lists afresh, and follows the new state
        server = LocalApiServer.start(port);
        eventually(Duration.ofSeconds(60), () -> assertThat(lease(server)).isNotNull());
        Eventually.until(Duration.ofSeconds(60), "the second recovery is said",
                () -> count("the API server answers again") == 2);
        int framesBefore = wire.sent("eth0").size();
        advertise(server, "web", VIP);
        advertise(server, "api", NEW_VIP);
        eventually(Duration.ofSeconds(60),
                () -> assertThat(agent.answering()).containsOnlyKeys(Ipv4.parse(VIP), Ipv4.parse(NEW_VIP)));
        eventually(() -> assertThat(wire.sent("eth0").subList(framesBefore, wire.sent("eth0").size()))
                .contains(ArpFrame.gratuitousRequest(MAC, Ipv4.parse(NEW_VIP))));
        eventually(() -> {
            assertThat(announced(server, "web")).isEqualTo("True");
            assertThat(announced(server, "api")).isEqualTo("True");
        });
        assertThat(wire.sent("eth0").subList(framesBefore, wire.sent("eth0").size()))
                .as("the VIP it kept is not announced again: it never stopped answering it")
                .noneMatch(f -> f.senderIp() == Ipv4.parse(VIP) && f.targetIp() == Ipv4.parse(VIP));
        assertThat(messages("stopped answering ARP for " + VIP)).isEmpty();
        assertThat(messages("stopped answering ARP for " + OLD_VIP)).hasSize(1);
        assertThat(agent.healthProblem()).isNull();
        assertThat(agent.readinessProblem()).isNull();

        assertThat(count("cannot reach the API server")).isEqualTo(2);
        assertThat(count("the API server answers again")).isEqualTo(2);
        List<ILoggingEvent> traces = List.copyOf(logs.list).stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN) && e.getThrowableProxy() != null)
                .filter(e -> root.getLoggerContext().getLogger(e.getLoggerName()).isEnabledFor(e.getLevel()))
                // vert.x warns, with a trace, when a starved machine holds its event loop for seconds: that
                // measures the machine, not how the outage is handled
                .filter(e -> !e.getLoggerName().endsWith(".BlockedThreadChecker"))
                .toList();
        assertThat(traces).as("stack traces printed for an expected outage")
                .extracting(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).isEmpty();
    }

    /**
     * Stuck is not the same as waiting: with the API server answering the Lease renewals but refusing the agent's
     * ARPAdvertisement list and watch, liveness fails after {@code stuckAfter} (so the kubelet restarts the agent);
     * once the watch works again, liveness is fine again.
     */
    @Test
    void livenessFailsWhenTheWatchStaysDownWhileTheApiServerAnswersTheLease() throws Exception {
        server = LocalApiServer.start(0);
        server.onRequest(r -> Identities.AGENT_USERNAME.equals(r.username()) && r.method().equals("GET")
                && r.path().contains("/arpadvertisements")
                ? Optional.of(new RequestHook.Refusal(503, "ServiceUnavailable", "refused by the test"))
                : Optional.empty());
        agentClient = server.client(server.agentToken("node-a"), b -> b.withRequestRetryBackoffLimit(0)
                .withWatchReconnectInterval(200));
        AgentOptions defaults = AgentOptions.defaults("node-a");
        AgentOptions options = new AgentOptions("node-a", List.of(), defaults.namespace(), "node-a", "127.0.0.1", -1,
                defaults.announce(), new LeaseKeeper.Timing(Duration.ofMillis(200), Duration.ofSeconds(3),
                        Duration.ofMillis(200), Duration.ofSeconds(30)), Duration.ofSeconds(3));
        agent = NodeAgent.start(agentClient, options, wire, () -> List.of(ETH0));

        eventually(() -> assertThat(lease(server)).isNotNull());
        Eventually.until("liveness fails", () -> agent.healthProblem() != null);
        assertThat(agent.healthProblem()).contains("ARPAdvertisement watch has been down")
                .contains("answers the Lease renewals");

        server.onRequest(null);
        advertise(server, "web", VIP);
        eventually(Duration.ofSeconds(60), () -> assertThat(agent.answering()).containsOnlyKeys(Ipv4.parse(VIP)));
        Eventually.until("alive again", () -> agent.healthProblem() == null);
    }

    /** Exactly the levels the agent ships with (no logback.xml given), every line captured. */
    private void shippedLogging() {
        LoggerContext context = root.getLoggerContext();
        context.reset();
        Logging.quiet(context);
        logs.setContext(context);
        logs.start();
        root.addAppender(logs);
        // and on the console, so a failing run shows what the agent said
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setEncoder(encoder);
        console.start();
        root.addAppender(console);
    }

    private static void advertise(LocalApiServer api, String service, String vip) {
        ARPAdvertisement a = new ARPAdvertisement();
        a.setMetadata(new ObjectMetaBuilder().withName(JuneauConstants.arpAdvertisementName("default", service))
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, "default")
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, service)
                .addToLabels(JuneauConstants.LABEL_NODE, "node-a").build());
        a.setSpec(new ARPAdvertisementSpec("l2", vip, "node-a"));
        api.adminClient().resources(ARPAdvertisement.class).resource(a).create();
    }

    private static String announced(LocalApiServer api, String service) {
        ARPAdvertisement a = api.adminClient().resources(ARPAdvertisement.class)
                .withName(JuneauConstants.arpAdvertisementName("default", service)).get();
        if (a == null || a.getStatus() == null || a.getStatus().getConditions() == null) {
            return null;
        }
        return a.getStatus().getConditions().stream()
                .filter(c -> JuneauConstants.CONDITION_ANNOUNCED.equals(c.getType())).map(Condition::getStatus)
                .findFirst().orElse(null);
    }

    private static Lease lease(LocalApiServer api) {
        return api.adminClient().leases().inNamespace(JuneauConstants.SYSTEM_NAMESPACE)
                .withName(JuneauConstants.agentLeaseName("node-a")).get();
    }

    /** Whether the agent replies to an ARP request for {@code ip} now ("no" after 2 s of silence). */
    /** Gratuitous ARP frames (request and reply form) sent for {@code ip} so far. */
    private long gratuitous(String ip) {
        long vip = Ipv4.parse(ip);
        return wire.sent("eth0").stream().filter(f -> f.senderIp() == vip && f.targetIp() == vip).count();
    }

    private boolean answers(String ip) throws InterruptedException {
        return wire.answers("eth0", CLIENT_MAC, Ipv4.parse("198.18.0.1"), Ipv4.parse(ip));
    }

    private List<String> messages(String containing) {
        return List.copyOf(logs.list).stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains(containing)).toList();
    }

    private long count(String containing) {
        return messages(containing).size();
    }
}
