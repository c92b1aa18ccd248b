package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The controller's view of one Service; {@code vip} + {@code addressPool} are the allocation record of truth. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The controller's view of the Service: its VIP, the nodes that may announce it, and conditions.")
public class ServiceLoadBalancerStatus {
    @JsonPropertyDescription("The metadata.generation this status was computed from.")
    private Long observedGeneration;
    @JsonPropertyDescription("Pending, Allocated, Ready, Degraded or Error.")
    private String phase;
    @JsonPropertyDescription("The allocated IPv4 VIP; never changes once set.")
    private String vip;
    @JsonPropertyDescription("The AddressPool the VIP was taken from.")
    private String addressPool;
    @JsonPropertyDescription("The Service ports with named targetPorts resolved to numbers, sorted by port then protocol.")
    private List<PortStatus> ports = new ArrayList<>();
    @JsonPropertyDescription("Nodes with a local ready backend that may advertise the VIP (they match the"
            + " network's nodeSelector and lack the exclusion label), sorted.")
    private List<String> advertisingNodes = new ArrayList<>();
    @JsonPropertyDescription("The single node elected to answer ARP for the VIP (arp networks); condition"
            + " Announced says whether its agent does.")
    private String arpAnnouncingNode;
    @JsonPropertyDescription("Ready backends of the Service (EndpointSlices).")
    private BackendSummary backendSummary;
    @JsonPropertyDescription("Allocated, Available (which nodes may advertise) and Announced (what the agents"
            + " report) conditions, keyed by type.")
    @SchemaFrom(type = ConditionSchema.class)
    private List<Condition> conditions = new ArrayList<>();

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getVip() {
        return vip;
    }

    public void setVip(String vip) {
        this.vip = vip;
    }

    public String getAddressPool() {
        return addressPool;
    }

    public void setAddressPool(String addressPool) {
        this.addressPool = addressPool;
    }

    public List<PortStatus> getPorts() {
        return ports;
    }

    public void setPorts(List<PortStatus> ports) {
        this.ports = ports;
    }

    public List<String> getAdvertisingNodes() {
        return advertisingNodes;
    }

    public void setAdvertisingNodes(List<String> advertisingNodes) {
        this.advertisingNodes = advertisingNodes;
    }

    public String getArpAnnouncingNode() {
        return arpAnnouncingNode;
    }

    public void setArpAnnouncingNode(String arpAnnouncingNode) {
        this.arpAnnouncingNode = arpAnnouncingNode;
    }

    public BackendSummary getBackendSummary() {
        return backendSummary;
    }

    public void setBackendSummary(BackendSummary backendSummary) {
        this.backendSummary = backendSummary;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ServiceLoadBalancerStatus)) {
            return false;
        }
        ServiceLoadBalancerStatus that = (ServiceLoadBalancerStatus) o;
        return Objects.equals(observedGeneration, that.observedGeneration) && Objects.equals(phase, that.phase)
                && Objects.equals(vip, that.vip) && Objects.equals(addressPool, that.addressPool)
                && Objects.equals(ports, that.ports) && Objects.equals(advertisingNodes, that.advertisingNodes)
                && Objects.equals(arpAnnouncingNode, that.arpAnnouncingNode)
                && Objects.equals(backendSummary, that.backendSummary) && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, phase, vip, addressPool, ports, advertisingNodes, arpAnnouncingNode,
                backendSummary, conditions);
    }
}
