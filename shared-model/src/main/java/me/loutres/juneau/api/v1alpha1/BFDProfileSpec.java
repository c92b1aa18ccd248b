package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import java.util.Objects;

/** Bidirectional Forwarding Detection timers (docs/api-reference.md, BFDProfile). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The BFD intervals and multiplier of sessions that use this profile.")
public class BFDProfileSpec {
    @Default("300")
    @JsonPropertyDescription("Minimum interval between BFD packets this node accepts, in milliseconds, 10-60000 (default 300).")
    private Integer receiveInterval;
    @Default("300")
    @JsonPropertyDescription("Minimum interval between BFD packets this node sends, in milliseconds, 10-60000 (default 300).")
    private Integer transmitInterval;
    @Default("3")
    @JsonPropertyDescription("Missed packets before the session is declared down, 2-255 (default 3).")
    private Integer detectMultiplier;
    @Default("false")
    @JsonPropertyDescription("Wait for the neighbour to start BFD instead of starting it (default false).")
    private Boolean passiveMode;

    public BFDProfileSpec() {
    }

    public Integer getReceiveInterval() {
        return receiveInterval;
    }

    public void setReceiveInterval(Integer receiveInterval) {
        this.receiveInterval = receiveInterval;
    }
    public Integer getTransmitInterval() {
        return transmitInterval;
    }

    public void setTransmitInterval(Integer transmitInterval) {
        this.transmitInterval = transmitInterval;
    }
    public Integer getDetectMultiplier() {
        return detectMultiplier;
    }

    public void setDetectMultiplier(Integer detectMultiplier) {
        this.detectMultiplier = detectMultiplier;
    }
    public Boolean getPassiveMode() {
        return passiveMode;
    }

    public void setPassiveMode(Boolean passiveMode) {
        this.passiveMode = passiveMode;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BFDProfileSpec)) {
            return false;
        }
        BFDProfileSpec that = (BFDProfileSpec) o;
        return Objects.equals(receiveInterval, that.receiveInterval) && Objects.equals(transmitInterval, that.transmitInterval) && Objects.equals(detectMultiplier, that.detectMultiplier) && Objects.equals(passiveMode, that.passiveMode);
    }

    @Override
    public int hashCode() {
        return Objects.hash(receiveInterval, transmitInterval, detectMultiplier, passiveMode);
    }
}
