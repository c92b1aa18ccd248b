package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Which address of which arp network the named node answers ARP for.")
public class ARPAdvertisementSpec {
    @Required
    @JsonPropertyDescription("A type=arp ExternalNetwork. Immutable.")
    private String externalNetwork;
    @Required
    @JsonPropertyDescription("The IPv4 address announced, inside the network's pools. Immutable.")
    private String address;
    @Required
    @JsonPropertyDescription("The node answering ARP for the address; the only mutable field.")
    private String nodeName;

    public ARPAdvertisementSpec() {
    }

    public ARPAdvertisementSpec(String externalNetwork, String address, String nodeName) {
        this.externalNetwork = externalNetwork;
        this.address = address;
        this.nodeName = nodeName;
    }

    public String getExternalNetwork() {
        return externalNetwork;
    }

    public void setExternalNetwork(String externalNetwork) {
        this.externalNetwork = externalNetwork;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ARPAdvertisementSpec)) {
            return false;
        }
        ARPAdvertisementSpec that = (ARPAdvertisementSpec) o;
        return Objects.equals(externalNetwork, that.externalNetwork) && Objects.equals(address, that.address)
                && Objects.equals(nodeName, that.nodeName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(externalNetwork, address, nodeName);
    }
}
