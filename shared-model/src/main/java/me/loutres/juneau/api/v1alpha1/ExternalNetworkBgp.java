package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import java.util.List;
import java.util.Objects;

/** How a bgp network's VIPs are announced (docs/api-reference.md, ExternalNetwork spec.bgp). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("BGP settings of a bgp network: which peers, communities, local preference, aggregation.")
public class ExternalNetworkBgp {
    @JsonPropertyDescription("BGPPeer names to announce to; absent or empty = every BGPPeer.")
    private List<String> peers;
    @JsonPropertyDescription("BGP communities attached to the routes: AA:NN (each 0-65535), large AA:NN:MM (each 0-4294967295), or no-export, no-advertise, no-export-subconfed, no-peer.")
    private List<String> communities;
    @JsonPropertyDescription("LOCAL_PREF attribute, 0-4294967295, sent to iBGP peers only.")
    private Long localPref;
    @Default("32")
    @JsonPropertyDescription("Announce the VIP's covering prefix of this length, 24-32 (default 32: the /32 itself).")
    private Integer aggregationLength;

    public ExternalNetworkBgp() {
    }

    public List<String> getPeers() {
        return peers;
    }

    public void setPeers(List<String> peers) {
        this.peers = peers;
    }
    public List<String> getCommunities() {
        return communities;
    }

    public void setCommunities(List<String> communities) {
        this.communities = communities;
    }
    public Long getLocalPref() {
        return localPref;
    }

    public void setLocalPref(Long localPref) {
        this.localPref = localPref;
    }
    public Integer getAggregationLength() {
        return aggregationLength;
    }

    public void setAggregationLength(Integer aggregationLength) {
        this.aggregationLength = aggregationLength;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ExternalNetworkBgp)) {
            return false;
        }
        ExternalNetworkBgp that = (ExternalNetworkBgp) o;
        return Objects.equals(peers, that.peers) && Objects.equals(communities, that.communities) && Objects.equals(localPref, that.localPref) && Objects.equals(aggregationLength, that.aggregationLength);
    }

    @Override
    public int hashCode() {
        return Objects.hash(peers, communities, localPref, aggregationLength);
    }
}
