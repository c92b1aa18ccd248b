package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The addresses of the pool and how their VIPs are announced.")
public class AddressPoolSpec {
    @Required
    @ValidationRule(value = "self == oldSelf", message = "advertiseMode is immutable")
    @JsonPropertyDescription("How VIPs of this pool are announced: bgp (entries are CIDRs, IPv4 /8 to /32 or IPv6 /64 to /128) or arp (entries are start-end ranges of one family). Immutable.")
    @SchemaFrom(type = NetworkMode.class)
    private String advertiseMode;

    @Required
    @JsonPropertyDescription("Address entries of either family (one pool may hold both): CIDRs for bgp, start-end ranges for arp. At least one, no duplicates, append-only.")
    private List<String> addresses = new ArrayList<>();

    public AddressPoolSpec() {
    }

    public AddressPoolSpec(String advertiseMode, List<String> addresses) {
        this.advertiseMode = advertiseMode;
        this.addresses = addresses == null ? null : new ArrayList<>(addresses);
    }

    public String getAdvertiseMode() {
        return advertiseMode;
    }

    public void setAdvertiseMode(String advertiseMode) {
        this.advertiseMode = advertiseMode;
    }

    public List<String> getAddresses() {
        return addresses;
    }

    public void setAddresses(List<String> addresses) {
        this.addresses = addresses;
    }
}
