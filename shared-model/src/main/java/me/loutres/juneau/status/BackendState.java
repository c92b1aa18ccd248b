package me.loutres.juneau.status;

import java.util.List;
import me.loutres.juneau.api.v1alpha1.PortStatus;

/**
 * The backends of one Service as its EndpointSlices show them (docs/phases-and-conditions.md).
 *
 * @param advertisingNodes nodes with a counted endpoint, sorted and distinct
 * @param totalReady       distinct addresses of counted endpoints (endpoints without a node included)
 * @param ports            Service ports with targetPort resolved, sorted by port then protocol
 * @param unresolvedPorts  Service ports (name, or {@code port/protocol} when unnamed) whose named targetPort no
 *                         EndpointSlice port resolves; left out of {@code ports}
 * @param leftOut          nodes with a counted endpoint that may not announce (excluded, or not selected by the
 *                         network), sorted; their endpoints count in neither summary
 */
public record BackendState(List<String> advertisingNodes, int totalReady, List<PortStatus> ports,
        List<String> unresolvedPorts, List<String> leftOut) {

    public BackendState {
        advertisingNodes = advertisingNodes == null ? List.of() : List.copyOf(advertisingNodes);
        leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
        ports = ports == null ? List.of() : List.copyOf(ports);
        unresolvedPorts = unresolvedPorts == null ? List.of() : List.copyOf(unresolvedPorts);
    }

    public BackendState(List<String> advertisingNodes, int totalReady, List<PortStatus> ports,
            List<String> unresolvedPorts) {
        this(advertisingNodes, totalReady, ports, unresolvedPorts, List.of());
    }

    /** No backends and no ports. */
    public static BackendState none() {
        return new BackendState(List.of(), 0, List.of(), List.of());
    }
}
