package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Objects;

/** One interface of a node (docs/api-reference.md, NodeNetwork). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One interface of the node.")
public class NodeInterface {
    @JsonPropertyDescription("The interface's name, e.g. eth0.")
    private String name;
    @JsonPropertyDescription("Its MAC address, e.g. 52:54:00:12:34:56; absent for an interface without one.")
    private String macAddress;
    @JsonPropertyDescription("Whether the interface is up (IFF_UP).")
    private Boolean up;
    @JsonPropertyDescription("Its IPv4 and IPv6 addresses with their prefix length, e.g. 192.0.2.5/24; link-local"
            + " addresses (169.254.0.0/16, fe80::/10) are left out.")
    private List<String> addresses;

    public NodeInterface() {
    }

    public NodeInterface(String name, String macAddress, Boolean up, List<String> addresses) {
        this.name = name;
        this.macAddress = macAddress;
        this.up = up;
        this.addresses = addresses;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getMacAddress() {
        return macAddress;
    }

    public void setMacAddress(String macAddress) {
        this.macAddress = macAddress;
    }

    public Boolean getUp() {
        return up;
    }

    public void setUp(Boolean up) {
        this.up = up;
    }

    public List<String> getAddresses() {
        return addresses;
    }

    public void setAddresses(List<String> addresses) {
        this.addresses = addresses;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeInterface that && Objects.equals(name, that.name)
                && Objects.equals(macAddress, that.macAddress) && Objects.equals(up, that.up)
                && Objects.equals(addresses, that.addresses);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, macAddress, up, addresses);
    }

    @Override
    public String toString() {
        return name + " " + macAddress + (Boolean.TRUE.equals(up) ? " up " : " down ") + addresses;
    }
}
