package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;
import me.loutres.juneau.api.JuneauConstants;

/**
 * The two ways a VIP is announced, as the CRD schemas list them ({@code enum}), so the API server refuses any
 * other value before admission. The API types keep the field a String: the admission rules must still judge (and
 * name) a wrong value that reaches them offline, from {@code juneau validate} or an old API server.
 */
public enum NetworkMode {
    @JsonProperty(JuneauConstants.MODE_BGP)
    BGP,
    @JsonProperty(JuneauConstants.MODE_ARP)
    ARP
}
