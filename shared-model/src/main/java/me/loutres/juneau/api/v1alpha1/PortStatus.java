package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** One Service port with its targetPort resolved to a number. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("One Service port, its targetPort resolved to a number.")
public class PortStatus {
    @JsonPropertyDescription("Name of the Service port.")
    private String name;
    @JsonPropertyDescription("TCP or UDP.")
    private String protocol;
    @JsonPropertyDescription("The port on the VIP.")
    private Integer port;
    @JsonPropertyDescription("The backend port, resolved to a number.")
    private Integer targetPort;

    public PortStatus() {
    }

    public PortStatus(String name, String protocol, int port, int targetPort) {
        this.name = name;
        this.protocol = protocol;
        this.port = port;
        this.targetPort = targetPort;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getProtocol() {
        return protocol;
    }

    public void setProtocol(String protocol) {
        this.protocol = protocol;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }

    public Integer getTargetPort() {
        return targetPort;
    }

    public void setTargetPort(Integer targetPort) {
        this.targetPort = targetPort;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PortStatus)) {
            return false;
        }
        PortStatus that = (PortStatus) o;
        return Objects.equals(name, that.name) && Objects.equals(protocol, that.protocol)
                && Objects.equals(port, that.port) && Objects.equals(targetPort, that.targetPort);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, protocol, port, targetPort);
    }

    @Override
    public String toString() {
        return (name == null ? "" : name + ":") + port + "/" + protocol + "->" + targetPort;
    }
}
