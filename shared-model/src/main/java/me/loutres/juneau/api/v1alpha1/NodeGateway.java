package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A default gateway of a node (docs/api-reference.md, NodeNetwork). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("A next hop of one of the node's default routes.")
public class NodeGateway {
    @JsonPropertyDescription("The gateway's address, e.g. 192.0.2.1 or 2001:db8::1.")
    private String address;
    @JsonPropertyDescription("The interface the route goes out of, e.g. eth0.")
    private String interfaceName;

    public NodeGateway() {
    }

    public NodeGateway(String address, String interfaceName) {
        this.address = address;
        this.interfaceName = interfaceName;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getInterfaceName() {
        return interfaceName;
    }

    public void setInterfaceName(String interfaceName) {
        this.interfaceName = interfaceName;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeGateway that && Objects.equals(address, that.address)
                && Objects.equals(interfaceName, that.interfaceName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(address, interfaceName);
    }

    @Override
    public String toString() {
        return address + " via " + interfaceName;
    }
}
