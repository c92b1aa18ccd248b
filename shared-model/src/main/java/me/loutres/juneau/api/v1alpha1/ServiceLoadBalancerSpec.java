package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** Copied by the controller from the Service's annotations, trimmed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Copied by the controller from the Service's annotations, trimmed.")
public class ServiceLoadBalancerSpec {
    @JsonPropertyDescription("The Service this object belongs to (same namespace).")
    private ServiceRef serviceRef;
    @JsonPropertyDescription("The ExternalNetwork named by the Service's annotation.")
    private String externalNetwork;
    @JsonPropertyDescription("The IPv4 address requested by the Service's annotation, if any.")
    private String requestedIP;

    public ServiceLoadBalancerSpec() {
    }

    public ServiceLoadBalancerSpec(String serviceName, String externalNetwork, String requestedIP) {
        this.serviceRef = new ServiceRef(serviceName);
        this.externalNetwork = externalNetwork;
        this.requestedIP = requestedIP;
    }

    public ServiceRef getServiceRef() {
        return serviceRef;
    }

    public void setServiceRef(ServiceRef serviceRef) {
        this.serviceRef = serviceRef;
    }

    public String getExternalNetwork() {
        return externalNetwork;
    }

    public void setExternalNetwork(String externalNetwork) {
        this.externalNetwork = externalNetwork;
    }

    public String getRequestedIP() {
        return requestedIP;
    }

    public void setRequestedIP(String requestedIP) {
        this.requestedIP = requestedIP;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ServiceLoadBalancerSpec)) {
            return false;
        }
        ServiceLoadBalancerSpec that = (ServiceLoadBalancerSpec) o;
        return Objects.equals(serviceRef, that.serviceRef) && Objects.equals(externalNetwork, that.externalNetwork)
                && Objects.equals(requestedIP, that.requestedIP);
    }

    @Override
    public int hashCode() {
        return Objects.hash(serviceRef, externalNetwork, requestedIP);
    }
}
