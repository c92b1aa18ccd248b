package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Objects;

/** A BGP neighbour of the nodes (docs/api-reference.md, BGPPeer). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The peer's address and AS numbers, which nodes peer with it, timers, BFD and authentication.")
public class BGPPeerSpec {
    @Required
    @JsonPropertyDescription("IPv4 address of the neighbour (a top-of-rack switch, a router).")
    private String peerAddress;
    @Required
    @JsonPropertyDescription("The neighbour's AS number, 1-4294967294 except 23456.")
    private Long peerASN;
    @Required
    @JsonPropertyDescription("The nodes' AS number towards this neighbour, 1-4294967294 except 23456; equal to peerASN makes the session iBGP.")
    private Long myASN;
    @Default("179")
    @JsonPropertyDescription("TCP port of the neighbour, 1-65535 (default 179).")
    private Integer peerPort;
    @Default("90s")
    @JsonPropertyDescription("Hold time, a Kubernetes (Go) duration of whole seconds such as 90s, 3m or 0: 0s (no keepalives) or 3s to 65535s (default 90s).")
    private String holdTime;
    @JsonPropertyDescription("Keepalive interval, a duration of whole seconds less than holdTime; 0s only with holdTime 0s (default holdTime/3).")
    private String keepaliveTime;
    @JsonPropertyDescription("IPv4 address the nodes connect from (default the address of the outgoing interface); required with a bfdProfile on a multihop session (iBGP or ebgpMultiHop), as BIRD needs it for BFD.")
    private String sourceAddress;
    @JsonPropertyDescription("Allow an eBGP neighbour that is not directly connected (default false).")
    private Boolean ebgpMultiHop;
    @JsonPropertyDescription("TCP MD5 password: a key of a Secret in juneau-system whose value is 1-80 bytes of UTF-8 without a double quote, backslash or line break (optional).")
    private SecretKeyRef passwordSecret;
    @JsonPropertyDescription("Name of a BFDProfile: the session is also watched by BFD (optional).")
    private String bfdProfile;
    @JsonPropertyDescription("Nodes that peer with this neighbour: a node peers if any selector matches it; absent or empty = every node.")
    @SchemaFrom(type = LabelSelectorSchema.AnyOf.class)
    private List<LabelSelector> nodeSelectors;

    public BGPPeerSpec() {
    }

    public String getPeerAddress() {
        return peerAddress;
    }

    public void setPeerAddress(String peerAddress) {
        this.peerAddress = peerAddress;
    }
    public Long getPeerASN() {
        return peerASN;
    }

    public void setPeerASN(Long peerASN) {
        this.peerASN = peerASN;
    }
    public Long getMyASN() {
        return myASN;
    }

    public void setMyASN(Long myASN) {
        this.myASN = myASN;
    }
    public Integer getPeerPort() {
        return peerPort;
    }

    public void setPeerPort(Integer peerPort) {
        this.peerPort = peerPort;
    }
    public String getHoldTime() {
        return holdTime;
    }

    public void setHoldTime(String holdTime) {
        this.holdTime = holdTime;
    }
    public String getKeepaliveTime() {
        return keepaliveTime;
    }

    public void setKeepaliveTime(String keepaliveTime) {
        this.keepaliveTime = keepaliveTime;
    }
    public String getSourceAddress() {
        return sourceAddress;
    }

    public void setSourceAddress(String sourceAddress) {
        this.sourceAddress = sourceAddress;
    }
    public Boolean getEbgpMultiHop() {
        return ebgpMultiHop;
    }

    public void setEbgpMultiHop(Boolean ebgpMultiHop) {
        this.ebgpMultiHop = ebgpMultiHop;
    }
    public SecretKeyRef getPasswordSecret() {
        return passwordSecret;
    }

    public void setPasswordSecret(SecretKeyRef passwordSecret) {
        this.passwordSecret = passwordSecret;
    }
    public String getBfdProfile() {
        return bfdProfile;
    }

    public void setBfdProfile(String bfdProfile) {
        this.bfdProfile = bfdProfile;
    }
    public List<LabelSelector> getNodeSelectors() {
        return nodeSelectors;
    }

    public void setNodeSelectors(List<LabelSelector> nodeSelectors) {
        this.nodeSelectors = nodeSelectors;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BGPPeerSpec)) {
            return false;
        }
        BGPPeerSpec that = (BGPPeerSpec) o;
        return Objects.equals(peerAddress, that.peerAddress) && Objects.equals(peerASN, that.peerASN) && Objects.equals(myASN, that.myASN) && Objects.equals(peerPort, that.peerPort) && Objects.equals(holdTime, that.holdTime) && Objects.equals(keepaliveTime, that.keepaliveTime) && Objects.equals(sourceAddress, that.sourceAddress) && Objects.equals(ebgpMultiHop, that.ebgpMultiHop) && Objects.equals(passwordSecret, that.passwordSecret) && Objects.equals(bfdProfile, that.bfdProfile) && Objects.equals(nodeSelectors, that.nodeSelectors);
    }

    @Override
    public int hashCode() {
        return Objects.hash(peerAddress, peerASN, myASN, peerPort, holdTime, keepaliveTime, sourceAddress, ebgpMultiHop, passwordSecret, bfdProfile, nodeSelectors);
    }
}
