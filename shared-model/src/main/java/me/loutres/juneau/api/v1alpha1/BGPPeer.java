package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A BGP neighbour of the nodes, e.g. a top-of-rack switch; each selected node's agent holds a session with it and
 * announces its bgp networks' VIPs (docs/api-reference.md, BGPPeer).
 */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Kind("BGPPeer")
@Plural("bgppeers")
@Singular("bgppeer")
@AdditionalPrinterColumn(name = "Address", jsonPath = ".spec.peerAddress", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "PeerASN", jsonPath = ".spec.peerASN", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "MyASN", jsonPath = ".spec.myASN", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "BFD", jsonPath = ".spec.bfdProfile", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("A BGP router the node agents peer with (through BIRD 2) to announce the VIPs of bgp networks.")
public class BGPPeer extends CustomResource<BGPPeerSpec, NoStatus> {
}
