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
 * One node's network as its agent sees it (docs/api-reference.md, NodeNetwork; docs/api-reference.md, NodeNetwork): named after the node,
 * written only by that node's agent (docs/admission.md, NodeNetwork), read by the webhook, the controller and
 * {@code juneau validate --cluster-state}: their addresses and gateways never become VIPs, and their prefixes say
 * which {@code arp} pools a node can reach.
 */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Kind("NodeNetwork")
@Plural("nodenetworks")
@Singular("nodenetwork")
@AdditionalPrinterColumn(name = "Node", jsonPath = ".spec.nodeName", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Gateways", jsonPath = ".status.gateways[*].address", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("One node's interfaces, prefixes and default gateways, written by that node's agent.")
public class NodeNetwork extends CustomResource<NodeNetworkSpec, NodeNetworkStatus> {
}
