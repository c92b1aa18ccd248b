package me.loutres.juneau.webhook.testing;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;

/** Objects the tests create in a mock API server. */
public final class TestObjects {
    private TestObjects() {
    }

    /** An AddressPool advertised over BGP with the one CIDR {@code cidr}. */
    public static AddressPool bgpPool(String name, String cidr) {
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName(name).build());
        AddressPoolSpec spec = new AddressPoolSpec();
        spec.setAdvertiseMode("bgp");
        spec.setAddresses(List.of(cidr));
        pool.setSpec(spec);
        return pool;
    }
}
