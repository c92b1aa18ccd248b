package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ServiceRef {
    @JsonPropertyDescription("Name of the Service in the same namespace.")
    private String name;

    public ServiceRef() {
    }

    public ServiceRef(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServiceRef && Objects.equals(name, ((ServiceRef) o).name);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }
}
