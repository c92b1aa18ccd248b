package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** An ExternalNetwork whose routes a BGPSession should carry and the node's BIRD does not (docs/bgp.md). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("An ExternalNetwork whose routes this session should send and the node's BGP daemon does not"
        + " carry, with why.")
public class WithheldNetwork {
    @JsonPropertyDescription("The ExternalNetwork's name.")
    private String name;
    @JsonPropertyDescription("Why its routes are not sent, in the daemon's words, e.g. BIRD refused ExternalNetwork"
            + " public, left out of this node's configuration: bird.conf:12:36 ...")
    private String reason;

    public WithheldNetwork() {
    }

    public WithheldNetwork(String name, String reason) {
        this.name = name;
        this.reason = reason;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WithheldNetwork that && Objects.equals(name, that.name)
                && Objects.equals(reason, that.reason);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, reason);
    }

    @Override
    public String toString() {
        return name + ": " + reason;
    }
}
