package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Objects;

/** Where an arp network's VIPs are answered (docs/api-reference.md, ExternalNetwork spec.arp). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("ARP settings of an arp network.")
public class ExternalNetworkArp {
    @JsonPropertyDescription("Interface names the agent may answer ARP on; absent = the interface whose IPv4 prefix contains the VIP.")
    private List<String> interfaces;

    public ExternalNetworkArp() {
    }

    public List<String> getInterfaces() {
        return interfaces;
    }

    public void setInterfaces(List<String> interfaces) {
        this.interfaces = interfaces;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ExternalNetworkArp)) {
            return false;
        }
        ExternalNetworkArp that = (ExternalNetworkArp) o;
        return Objects.equals(interfaces, that.interfaces);
    }

    @Override
    public int hashCode() {
        return Objects.hash(interfaces);
    }
}
