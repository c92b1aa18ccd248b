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
 * The one node that answers ARP for a VIP (docs/api-reference.md); only the controller writes it, except its {@code status},
 * which the agent of that node writes (docs/admission.md).
 */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Kind("ARPAdvertisement")
@Plural("arpadvertisements")
@Singular("arpadvertisement")
@AdditionalPrinterColumn(name = "Address", jsonPath = ".spec.address", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Node", jsonPath = ".spec.nodeName", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "MAC", jsonPath = ".status.macAddress", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ExternalNetwork", jsonPath = ".spec.externalNetwork", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("The one node that answers ARP for a VIP of an arp network; written by the controller, its status by that node's agent.")
public class ARPAdvertisement extends CustomResource<ARPAdvertisementSpec, ARPAdvertisementStatus> {
}
