package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A cluster-scoped set of addresses VIPs are taken from (docs/api-reference.md). */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Plural("addresspools")
@Singular("addresspool")
@AdditionalPrinterColumn(name = "Mode", jsonPath = ".spec.advertiseMode", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Total", jsonPath = ".status.total", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Allocated", jsonPath = ".status.allocated", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Free", jsonPath = ".status.free", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("A cluster-scoped set of IPv4 addresses that VIPs are taken from; listed by one ExternalNetwork of the same mode.")
public class AddressPool extends CustomResource<AddressPoolSpec, AddressPoolStatus> {
}
