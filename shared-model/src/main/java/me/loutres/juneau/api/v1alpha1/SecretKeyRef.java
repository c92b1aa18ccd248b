package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** A key of a Secret in juneau-system (docs/api-reference.md, BGPPeer). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("A key of a Secret in the namespace juneau-system.")
public class SecretKeyRef {
    @Required
    @JsonPropertyDescription("Name of the Secret, in namespace juneau-system.")
    private String name;
    @Required
    @JsonPropertyDescription("The key of the Secret's data holding the value.")
    private String key;

    public SecretKeyRef() {
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SecretKeyRef)) {
            return false;
        }
        SecretKeyRef that = (SecretKeyRef) o;
        return Objects.equals(name, that.name) && Objects.equals(key, that.key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, key);
    }
}
