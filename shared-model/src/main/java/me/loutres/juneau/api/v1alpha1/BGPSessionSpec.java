package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** Which BGPPeer and node a BGPSession is about (docs/api-reference.md, BGPSession). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Which node peers with which BGPPeer.")
public class BGPSessionSpec {
    @Required
    @JsonPropertyDescription("Name of the BGPPeer.")
    private String peer;
    @Required
    @JsonPropertyDescription("The node whose agent holds the session.")
    private String nodeName;

    public BGPSessionSpec() {
    }

    public String getPeer() {
        return peer;
    }

    public void setPeer(String peer) {
        this.peer = peer;
    }
    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BGPSessionSpec)) {
            return false;
        }
        BGPSessionSpec that = (BGPSessionSpec) o;
        return Objects.equals(peer, that.peer) && Objects.equals(nodeName, that.nodeName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(peer, nodeName);
    }
}
