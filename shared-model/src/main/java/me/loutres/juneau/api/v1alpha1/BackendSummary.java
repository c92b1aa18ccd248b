package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Ready backends of the Service, counted from its EndpointSlices.")
public class BackendSummary {
    @JsonPropertyDescription("Distinct ready, serving, not terminating endpoint addresses.")
    private Integer totalReady;
    @JsonPropertyDescription("Number of nodes with a local ready backend (the advertisingNodes).")
    private Integer localReadyNodes;

    public BackendSummary() {
    }

    public BackendSummary(int totalReady, int localReadyNodes) {
        this.totalReady = totalReady;
        this.localReadyNodes = localReadyNodes;
    }

    public Integer getTotalReady() {
        return totalReady;
    }

    public void setTotalReady(Integer totalReady) {
        this.totalReady = totalReady;
    }

    public Integer getLocalReadyNodes() {
        return localReadyNodes;
    }

    public void setLocalReadyNodes(Integer localReadyNodes) {
        this.localReadyNodes = localReadyNodes;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BackendSummary)) {
            return false;
        }
        BackendSummary that = (BackendSummary) o;
        return Objects.equals(totalReady, that.totalReady) && Objects.equals(localReadyNodes, that.localReadyNodes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(totalReady, localReadyNodes);
    }
}
