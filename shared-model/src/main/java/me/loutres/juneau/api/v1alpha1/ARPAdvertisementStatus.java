package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Who really answers ARP for the address, through which interface and since when (docs/api-reference.md); written by the node
 * agent of {@code spec.nodeName} through the status subresource, so a user can tell an elected node from a node
 * that is on the wire.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Written by the node agent that answers: the node, its MAC address and since when.")
public class ARPAdvertisementStatus {
    @JsonPropertyDescription("The node whose agent wrote this status; equals spec.nodeName when it is current.")
    private String node;
    @JsonPropertyDescription("The network interface the address is answered on.")
    private String interfaceName;
    @JsonPropertyDescription("The MAC address ARP replies carry (the interface's).")
    private String macAddress;
    @JsonPropertyDescription("When this node started answering (RFC 3339).")
    private String announcedAt;
    @JsonPropertyDescription("The metadata.generation this status was written for.")
    private Long observedGeneration;
    @JsonPropertyDescription("Condition Announced: True, or False with reason InterfaceNotFound, SocketError or NotOwner.")
    @SchemaFrom(type = ConditionSchema.class)
    private List<Condition> conditions = new ArrayList<>();

    public String getNode() {
        return node;
    }

    public void setNode(String node) {
        this.node = node;
    }

    /** JSON field {@code interface} ({@code interface} is a Java keyword). */
    @com.fasterxml.jackson.annotation.JsonProperty("interface")
    public String getInterfaceName() {
        return interfaceName;
    }

    @com.fasterxml.jackson.annotation.JsonProperty("interface")
    public void setInterfaceName(String interfaceName) {
        this.interfaceName = interfaceName;
    }

    public String getMacAddress() {
        return macAddress;
    }

    public void setMacAddress(String macAddress) {
        this.macAddress = macAddress;
    }

    public String getAnnouncedAt() {
        return announcedAt;
    }

    public void setAnnouncedAt(String announcedAt) {
        this.announcedAt = announcedAt;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions == null ? new ArrayList<>() : conditions;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ARPAdvertisementStatus)) {
            return false;
        }
        ARPAdvertisementStatus that = (ARPAdvertisementStatus) o;
        return Objects.equals(node, that.node) && Objects.equals(interfaceName, that.interfaceName)
                && Objects.equals(macAddress, that.macAddress) && Objects.equals(announcedAt, that.announcedAt)
                && Objects.equals(observedGeneration, that.observedGeneration)
                && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(node, interfaceName, macAddress, announcedAt, observedGeneration, conditions);
    }
}
