package me.loutres.juneau.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import org.junit.jupiter.api.Test;

/** The shared reader's verdict on informer objects: once per version, never per reconcile (issue 12 item 1). */
class ReadChecksTest {

    static AddressPool pool(String uid, String rv, List<String> entries) {
        AddressPool p = new AddressPool();
        p.getMetadata().setName("p");
        p.getMetadata().setUid(uid);
        p.getMetadata().setResourceVersion(rv);
        p.setSpec(new AddressPoolSpec("bgp", entries));
        return p;
    }

    @Test
    void aProblemIsTheSharedReadersOneLineNamingTheField() {
        ReadChecks checks = new ReadChecks();
        assertThat(checks.problem(pool("u1", "1", Arrays.asList("10.0.0.0/24", null))))
                .hasValueSatisfying(p -> assertThat(p).contains("spec.addresses[1]").contains("null")
                        .doesNotContain("Exception"));
        assertThat(checks.problem(pool("u1", "2", List.of("10.0.0.0/24")))).isEmpty();
        assertThat(checks.problem(null)).isEmpty();
    }

    @Test
    void eachVersionIsCheckedOnceHoweverOftenItIsRead() {
        ReadChecks checks = new ReadChecks();
        AddressPool v1 = pool("u1", "1", Arrays.asList("10.0.0.0/24", null));
        for (int i = 0; i < 5; i++) {
            assertThat(checks.problem(v1)).isPresent();
            // the same version read again, as another object instance (a relist), is no new check either
            assertThat(checks.problem(pool("u1", "1", Arrays.asList("10.0.0.0/24", null)))).isPresent();
        }
        assertThat(checks.checks()).isEqualTo(1);
        assertThat(checks.problem(pool("u1", "2", List.of("10.0.0.0/24")))).isEmpty();
        assertThat(checks.checks()).as("a new resourceVersion").isEqualTo(2);
        assertThat(checks.problem(pool("u2", "2", List.of("10.0.0.0/24")))).isEmpty();
        assertThat(checks.checks()).as("the same name re-created (new uid)").isEqualTo(3);
    }

    @Test
    void theControllersOwnWritesAreTrustedAndADeletedObjectIsForgotten() {
        ReadChecks checks = new ReadChecks();
        AddressPool written = pool("u1", "7", List.of("10.0.0.0/24"));
        checks.trust(written);
        assertThat(checks.problem(written)).isEmpty();
        assertThat(checks.checks()).isZero();

        checks.forget(written);
        assertThat(checks.problem(written)).isEmpty();
        assertThat(checks.checks()).as("checked again after the object was forgotten").isEqualTo(1);
    }

    @Test
    void aVersionTheControllerWroteThroughRecentWritesCostsNoCheckWhenItComesBackFromTheInformer() {
        ReadChecks checks = new ReadChecks();
        RecentWrites<AddressPool> writes = new RecentWrites<>(k -> null, checks::trust);
        writes.wrote("p", pool("u1", "9", List.of("10.0.0.0/24")));
        // the watch event of the same version: a new instance, same uid and resourceVersion
        assertThat(checks.problem(pool("u1", "9", List.of("10.0.0.0/24")))).isEmpty();
        assertThat(checks.checks()).isZero();
        // someone else's next version is checked
        assertThat(checks.problem(pool("u1", "10", Arrays.asList("10.0.0.0/24", null)))).isPresent();
        assertThat(checks.checks()).isEqualTo(1);
    }

    @Test
    void anObjectWithoutAResourceVersionIsCheckedEachTimeAndNotRemembered() {
        ReadChecks checks = new ReadChecks();
        AddressPool local = pool("u1", null, Arrays.asList((String) null));
        assertThat(checks.problem(local)).isPresent();
        assertThat(checks.problem(local)).isPresent();
        assertThat(checks.checks()).isEqualTo(2);
    }
}
