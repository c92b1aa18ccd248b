package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** BFD timers a BGPPeer can name, to notice a dead node or link within a second (docs/api-reference.md, BFDProfile). */
@Group("juneau.loutres.me")
@Version("v1alpha1")
@Kind("BFDProfile")
@Plural("bfdprofiles")
@Singular("bfdprofile")
@AdditionalPrinterColumn(name = "Receive", jsonPath = ".spec.receiveInterval", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Transmit", jsonPath = ".spec.transmitInterval", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Multiplier", jsonPath = ".spec.detectMultiplier", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Passive", jsonPath = ".spec.passiveMode", type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@JsonClassDescription("BFD timers a BGPPeer may name, so that a lost link is detected in well under a second.")
public class BFDProfile extends CustomResource<BFDProfileSpec, NoStatus> {
}
