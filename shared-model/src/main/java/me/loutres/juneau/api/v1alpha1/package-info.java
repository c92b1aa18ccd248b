/** The custom resources of {@code juneau.loutres.me/v1alpha1} (docs/api-reference.md). */
package me.loutres.juneau.api.v1alpha1;
