package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Objects;

/** What the node's agent reads of its node's network (docs/api-reference.md, NodeNetwork). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Written by the node agent: the node's interfaces and default gateways as the kernel reports them.")
public class NodeNetworkStatus {
    @JsonPropertyDescription("The node's interfaces, loopback left out, sorted by name.")
    private List<NodeInterface> interfaces;
    @JsonPropertyDescription("The node's default gateways of both families (the next hops of its default routes).")
    private List<NodeGateway> gateways;

    public NodeNetworkStatus() {
    }

    public NodeNetworkStatus(List<NodeInterface> interfaces, List<NodeGateway> gateways) {
        this.interfaces = interfaces;
        this.gateways = gateways;
    }

    public List<NodeInterface> getInterfaces() {
        return interfaces;
    }

    public void setInterfaces(List<NodeInterface> interfaces) {
        this.interfaces = interfaces;
    }

    public List<NodeGateway> getGateways() {
        return gateways;
    }

    public void setGateways(List<NodeGateway> gateways) {
        this.gateways = gateways;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeNetworkStatus that && Objects.equals(interfaces, that.interfaces)
                && Objects.equals(gateways, that.gateways);
    }

    @Override
    public int hashCode() {
        return Objects.hash(interfaces, gateways);
    }
}
