package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The network's announcement type and the AddressPools it hands out VIPs from.")
public class ExternalNetworkSpec {
    @Required
    @ValidationRule(value = "self == oldSelf", message = "type is immutable")
    @JsonPropertyDescription("bgp or arp; every listed pool's advertiseMode must match. Immutable.")
    @SchemaFrom(type = NetworkMode.class)
    private String type;

    @Required
    @JsonPropertyDescription("AddressPool names, in allocation order. At least one, no duplicates, append-only.")
    private List<String> addressPools = new ArrayList<>();

    @JsonPropertyDescription("Only nodes matching this label selector may announce the network's VIPs; absent = every node.")
    @SchemaFrom(type = LabelSelectorSchema.class)
    private LabelSelector nodeSelector;

    @JsonPropertyDescription("type bgp only: which BGPPeers hear the VIPs and with which attributes.")
    private ExternalNetworkBgp bgp;

    @JsonPropertyDescription("type arp only: the interfaces the agent may answer ARP on.")
    private ExternalNetworkArp arp;

    @JsonPropertyDescription("Who may use the network (namespaces, namespace and Service label selectors); absent = every Service.")
    private ServiceAllocation serviceAllocation;

    public ExternalNetworkSpec() {
    }

    public ExternalNetworkSpec(String type, List<String> addressPools) {
        this.type = type;
        this.addressPools = addressPools == null ? null : new ArrayList<>(addressPools);
    }

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public List<String> getAddressPools() {
        return addressPools;
    }

    public void setAddressPools(List<String> addressPools) {
        this.addressPools = addressPools;
    }

    public LabelSelector getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(LabelSelector nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public ExternalNetworkBgp getBgp() {
        return bgp;
    }

    public void setBgp(ExternalNetworkBgp bgp) {
        this.bgp = bgp;
    }

    public ExternalNetworkArp getArp() {
        return arp;
    }

    public void setArp(ExternalNetworkArp arp) {
        this.arp = arp;
    }

    public ServiceAllocation getServiceAllocation() {
        return serviceAllocation;
    }

    public void setServiceAllocation(ServiceAllocation serviceAllocation) {
        this.serviceAllocation = serviceAllocation;
    }
}
