package me.loutres.juneau.controller.reconcile;

import me.loutres.juneau.controller.ServiceKey;

/** Where reconcilers put follow-up work: Service keys and AddressPool names. */
public interface Requeue {
    void service(ServiceKey key);

    /** An AddressPool's counts may have changed: its status is rewritten soon (bursts coalesce). */
    void pool(String name);

    /** An ExternalNetwork changed: what cannot be read in it is reported (once per change). */
    void network(String name);
}
