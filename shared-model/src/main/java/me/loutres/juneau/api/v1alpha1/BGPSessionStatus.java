package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Objects;

/** What the node's BGP daemon reports about one session, written by that node's agent (docs/api-reference.md, BGPSession). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Written by the node agent: the session's state as BIRD reports it.")
public class BGPSessionStatus {
    @JsonPropertyDescription("BGP state: Idle, Connect, Active, OpenSent, OpenConfirm or Established; Unknown when the node's agent is dead by its Lease (written by the controller).")
    private String state;
    @JsonPropertyDescription("BFD state: Up, Down, Init or AdminDown; absent without a BFDProfile.")
    private String bfdState;
    @JsonPropertyDescription("When the state last changed (RFC 3339).")
    private String since;
    @JsonPropertyDescription("Routes this node currently announces to the neighbour.")
    private Long routesAdvertised;
    @JsonPropertyDescription("The daemon's words for the last failure, e.g. Connection refused or Hold timer expired.")
    private String lastError;
    @JsonPropertyDescription("The ExternalNetworks this session should send whose routes the node's BGP daemon does not"
            + " carry (it refused them, or still runs an earlier configuration), each with why; absent when it carries"
            + " them all. A ServiceLoadBalancer of such a network is not counted as announced by this node.")
    private List<WithheldNetwork> withheldNetworks;
    @JsonPropertyDescription("The addresses the routes of this session cover, from the configuration the node's BGP"
            + " daemon accepted and runs: ranges (198.18.100.10-198.18.100.14) and single addresses, merged. A"
            + " ServiceLoadBalancer counts this node as announcing its VIP only when the VIP is in them; absent from"
            + " an agent that does not report it (then per network, withheldNetworks).")
    private List<String> carriedAddresses;
    @JsonPropertyDescription("The metadata.generation this status was written for.")
    private Long observedGeneration;
    @JsonPropertyDescription("Condition Established: True while the session is Established.")
    @SchemaFrom(type = ConditionSchema.class)
    private List<Condition> conditions;

    public BGPSessionStatus() {
    }

    public String getState() {
        return state;
    }

    public void setState(String state) {
        this.state = state;
    }
    public String getBfdState() {
        return bfdState;
    }

    public void setBfdState(String bfdState) {
        this.bfdState = bfdState;
    }
    public String getSince() {
        return since;
    }

    public void setSince(String since) {
        this.since = since;
    }
    public Long getRoutesAdvertised() {
        return routesAdvertised;
    }

    public void setRoutesAdvertised(Long routesAdvertised) {
        this.routesAdvertised = routesAdvertised;
    }
    public String getLastError() {
        return lastError;
    }

    public void setLastError(String lastError) {
        this.lastError = lastError;
    }
    public List<WithheldNetwork> getWithheldNetworks() {
        return withheldNetworks;
    }

    public void setWithheldNetworks(List<WithheldNetwork> withheldNetworks) {
        this.withheldNetworks = withheldNetworks;
    }

    public List<String> getCarriedAddresses() {
        return carriedAddresses;
    }

    public void setCarriedAddresses(List<String> carriedAddresses) {
        this.carriedAddresses = carriedAddresses;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BGPSessionStatus)) {
            return false;
        }
        BGPSessionStatus that = (BGPSessionStatus) o;
        return Objects.equals(state, that.state) && Objects.equals(bfdState, that.bfdState) && Objects.equals(since, that.since) && Objects.equals(routesAdvertised, that.routesAdvertised) && Objects.equals(lastError, that.lastError) && Objects.equals(withheldNetworks, that.withheldNetworks) && Objects.equals(carriedAddresses, that.carriedAddresses) && Objects.equals(observedGeneration, that.observedGeneration) && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(state, bfdState, since, routesAdvertised, lastError, withheldNetworks, carriedAddresses,
                observedGeneration, conditions);
    }
}
