package me.loutres.juneau.controller.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** The series of docs/operations.md, in one Prometheus registry served on {@code /metrics}. */
public final class ControllerMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, Meter.Id[]> poolGauges = new ConcurrentHashMap<>();
    private final Counter arpNodeChanges;
    private final Counter allocations;

    public ControllerMetrics() {
        arpNodeChanges = Counter.builder("juneau_arp_node_changes")
                .description("ARPAdvertisements whose node changed (created, moved or removed)").register(registry);
        allocations = Counter.builder("juneau_allocations")
                .description("VIPs allocated and recorded in a ServiceLoadBalancer status").register(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public String scrape() {
        return registry.scrape();
    }

    public void allocated() {
        allocations.increment();
    }

    public void allocationFailed(String reason) {
        Counter.builder("juneau_allocation_failures").description("Allocations that failed, by reason")
                .tag("reason", reason).register(registry).increment();
    }

    /** A ServiceLoadBalancer status that cannot be read was skipped (docs/phases-and-conditions.md), counted once per problem. */
    public void malformedStatus() {
        Counter.builder("juneau_malformed_status").description(
                "ServiceLoadBalancer statuses skipped because they cannot be read (VIP without pool, bad VIP)")
                .register(registry).increment();
    }

    /** An object (or an entry of one) that cannot be read was skipped, counted once per problem and change. */
    public void malformedObject(String kind) {
        Counter.builder("juneau_malformed_objects").description(
                "Objects or entries skipped because they cannot be read (e.g. an AddressPool entry that is no range)")
                .tag("kind", kind).register(registry).increment();
    }

    /** An object found in conflict with another (overlapping pools, a pool in two networks), once per change. */
    public void conflictingObject(String kind) {
        Counter.builder("juneau_conflicting_objects").description(
                "Objects found in conflict with another although admission refuses it (stored by a race or before the"
                        + " webhook): overlapping AddressPools, an AddressPool listed by two ExternalNetworks, an"
                        + " AddressPool overlapping a ServiceCIDR or a Node's podCIDR learnt after it")
                .tag("kind", kind).register(registry).increment();
    }

    /** The API server refused a controller write (admission or validation), counted once per refusal. */
    public void writeDenied() {
        Counter.builder("juneau_writes_denied").description("Controller writes the API server refused (403/422)")
                .register(registry).increment();
    }

    /**
     * A watch tick the leader could not write (docs/operations.md, "Node liveness after an outage"), by reason (the
     * HTTP code, or the exception's class): a dead node is then judged on the leader's renewals, up to a retry period
     * later.
     */
    public void watchTickFailed(String reason) {
        Counter.builder("juneau_watch_tick_failures").description(
                "Watch ticks the leader could not write; node deaths are then judged on its renewals, up to a retry"
                        + " period later").tag("reason", reason).register(registry).increment();
    }

    public void arpNodeChanged() {
        arpNodeChanges.increment();
    }

    /** Gauges of one pool's counts; the suppliers read the allocator of whichever term is current. */
    public void watchPool(String pool, Supplier<Number> total, Supplier<Number> allocated) {
        poolGauges.computeIfAbsent(pool, p -> new Meter.Id[] {
                Gauge.builder("juneau_pool_addresses_usable", total).strongReference(true)
                        .description("Addresses an AddressPool can hand out").tag("pool", p).register(registry).getId(),
                Gauge.builder("juneau_pool_addresses_allocated", allocated).strongReference(true)
                        .description("Addresses of an AddressPool held by ServiceLoadBalancers").tag("pool", p)
                        .register(registry).getId()});
    }

    public void forgetPool(String pool) {
        Meter.Id[] ids = poolGauges.remove(pool);
        if (ids != null) {
            for (Meter.Id id : ids) {
                registry.remove(id);
            }
        }
    }
}
