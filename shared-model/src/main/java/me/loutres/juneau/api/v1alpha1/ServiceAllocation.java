package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Objects;

/**
 * Who may use an ExternalNetwork (docs/api-reference.md, ExternalNetwork {@code spec.serviceAllocation}): the
 * Service's namespace must be listed in {@code namespaces} or selected by one of {@code namespaceSelectors} (when
 * either is set), and the Service must be selected by one of {@code serviceSelectors} (when set). The rule is
 * {@code policy/NetworkAccess}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Which Services may use the network: by namespace name, namespace labels and Service labels.")
public class ServiceAllocation {
    @JsonPropertyDescription("Namespaces whose Services may use the network (names). With namespaceSelectors: a namespace listed here or selected there may.")
    private List<String> namespaces;

    @JsonPropertyDescription("Label selectors on the Service's Namespace: a namespace any of them selects may use the network.")
    @SchemaFrom(type = LabelSelectorSchema.AnyOf.class)
    private List<LabelSelector> namespaceSelectors;

    @JsonPropertyDescription("Label selectors on the Service: only Services any of them selects may use the network (and their namespace must be allowed too).")
    @SchemaFrom(type = LabelSelectorSchema.AnyOf.class)
    private List<LabelSelector> serviceSelectors;

    public ServiceAllocation() {
    }

    public List<String> getNamespaces() {
        return namespaces;
    }

    public void setNamespaces(List<String> namespaces) {
        this.namespaces = namespaces;
    }

    public List<LabelSelector> getNamespaceSelectors() {
        return namespaceSelectors;
    }

    public void setNamespaceSelectors(List<LabelSelector> namespaceSelectors) {
        this.namespaceSelectors = namespaceSelectors;
    }

    public List<LabelSelector> getServiceSelectors() {
        return serviceSelectors;
    }

    public void setServiceSelectors(List<LabelSelector> serviceSelectors) {
        this.serviceSelectors = serviceSelectors;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ServiceAllocation)) {
            return false;
        }
        ServiceAllocation that = (ServiceAllocation) o;
        return Objects.equals(namespaces, that.namespaces) && Objects.equals(namespaceSelectors, that.namespaceSelectors)
                && Objects.equals(serviceSelectors, that.serviceSelectors);
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespaces, namespaceSelectors, serviceSelectors);
    }
}
