package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** The controller's record of one managed Service (docs/phases-and-conditions.md); only the controller writes it. */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Plural("serviceloadbalancers")
@Singular("serviceloadbalancer")
@ShortNames("slb")
@AdditionalPrinterColumn(name = "Service", jsonPath = ".spec.serviceRef.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ExternalNetwork", jsonPath = ".spec.externalNetwork", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "VIP", jsonPath = ".status.vip", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
// Ready says a node may advertise; Announced (docs/phases-and-conditions.md) says whether the VIP really reaches the
// network, by what the agents report: shown beside it so "Ready" never stands alone next to Announced=False
@AdditionalPrinterColumn(name = "Announced", jsonPath = ".status.conditions[?(@.type==\"Announced\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Nodes", jsonPath = ".status.backendSummary.localReadyNodes", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "ARPNode", jsonPath = ".status.arpAnnouncingNode", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("The controller's record of one managed Service (same namespace and name); written only by the controller.")
public class ServiceLoadBalancer extends CustomResource<ServiceLoadBalancerSpec, ServiceLoadBalancerStatus>
        implements Namespaced {
}
