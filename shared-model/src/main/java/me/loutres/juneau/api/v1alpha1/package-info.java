/** The custom resources of {@code juneau.loutres.me/v1alpha1} (SPEC §1). */
package me.loutres.juneau.api.v1alpha1;
