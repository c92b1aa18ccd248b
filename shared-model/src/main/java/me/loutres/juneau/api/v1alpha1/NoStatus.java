package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The status of kinds that keep none. A kind whose status type is Void gets a {@code status} schema without a
 * description, which {@code kubectl explain} prints as empty; this type says so instead. Nothing writes it.
 */
@JsonClassDescription("Unused: this kind keeps no status; the objects that use it show what it leads to.")
@JsonIgnoreProperties(ignoreUnknown = true)
public final class NoStatus {
    @Override
    public boolean equals(Object o) {
        return o instanceof NoStatus;
    }

    @Override
    public int hashCode() {
        return 0;
    }
}
