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
 * One (BGPPeer, node) session as the node's agent sees it; named {@code <peer>.<node>}, labelled with both, owned by
 * the BGPPeer so it goes with it. Only an agent writes it (docs/api-reference.md, BGPSession; docs/admission.md).
 */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Kind("BGPSession")
@Plural("bgpsessions")
@Singular("bgpsession")
@AdditionalPrinterColumn(name = "Peer", jsonPath = ".spec.peer", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Node", jsonPath = ".spec.nodeName", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.state", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "BFD", jsonPath = ".status.bfdState", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Routes", jsonPath = ".status.routesAdvertised", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("One BGP session of one node with one BGPPeer, written by that node's agent.")
public class BGPSession extends CustomResource<BGPSessionSpec, BGPSessionStatus> {
}
