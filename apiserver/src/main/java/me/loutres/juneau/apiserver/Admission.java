package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Admission control between the computed object and storage (mutating, then validating). */
interface Admission {
    /** The object to store (possibly mutated); for DELETE {@code object} is null and the result ignored. */
    ObjectNode admit(String operation, ResourceType type, String subresource, String namespace, String name,
            ObjectNode object, ObjectNode old, Caller caller) throws ApiException;

    Admission NONE = (op, type, sub, ns, name, object, old, caller) -> object;
}
