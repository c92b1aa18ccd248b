package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** Which node a NodeNetwork is about (docs/api-reference.md, NodeNetwork). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Which node's network this is.")
public class NodeNetworkSpec {
    @Required
    @JsonPropertyDescription("The node whose agent reports; equal to metadata.name.")
    private String nodeName;

    public NodeNetworkSpec() {
    }

    /**
     * The spec of node {@code nodeName}'s NodeNetwork. A factory, not a constructor: Jackson would read a lone string
     * ({@code spec: "x"}) through a one-string constructor, and strict types refuse that (docs/design.md).
     */
    public static NodeNetworkSpec of(String nodeName) {
        NodeNetworkSpec spec = new NodeNetworkSpec();
        spec.setNodeName(nodeName);
        return spec;
    }

    public String getNodeName() {
        return nodeName;
    }

    public void setNodeName(String nodeName) {
        this.nodeName = nodeName;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeNetworkSpec that && Objects.equals(nodeName, that.nodeName);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(nodeName);
    }
}
