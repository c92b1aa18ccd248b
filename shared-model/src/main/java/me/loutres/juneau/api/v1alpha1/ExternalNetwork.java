package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A cluster-scoped network Services name in their annotation (docs/api-reference.md). */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Plural("externalnetworks")
@Singular("externalnetwork")
@AdditionalPrinterColumn(name = "Type", jsonPath = ".spec.type", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Pools", jsonPath = ".spec.addressPools", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("A cluster-scoped network that Services name in the annotation juneau.loutres.me/load-balancer-external-network; its AddressPools give the VIPs.")
public class ExternalNetwork extends CustomResource<ExternalNetworkSpec, NoStatus> {
}
