package me.loutres.juneau.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.runtime.watch.VersionMemo;
import me.loutres.juneau.view.KubeReader;
import org.junit.jupiter.api.Test;

/**
 * The shared reader's verdict on informer objects as the controller asks it (issue 12 item 1): a one-line problem,
 * once per version, and none for a version the controller wrote itself.
 */
class SharedReaderChecksTest {

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
        VersionMemo<Optional<String>> checks = new VersionMemo<>();
        assertThat(checks.read(pool("u1", "1", Arrays.asList("10.0.0.0/24", null)), KubeReader::check))
                .hasValueSatisfying(p -> assertThat(p).contains("spec.addresses[1]").contains("null")
                        .doesNotContain("Exception"));
        assertThat(checks.read(pool("u1", "2", List.of("10.0.0.0/24")), KubeReader::check)).isEmpty();
    }

    @Test
    void aVersionTheControllerWroteThroughRecentWritesCostsNoCheckWhenItComesBackFromTheInformer() {
        VersionMemo<Optional<String>> checks = new VersionMemo<>();
        RecentWrites<AddressPool> writes = new RecentWrites<>(k -> null, o -> checks.remember(o, Optional.empty()));
        writes.wrote("p", pool("u1", "9", List.of("10.0.0.0/24")));
        // the watch event of the same version: a new instance, same uid and resourceVersion
        assertThat(checks.read(pool("u1", "9", List.of("10.0.0.0/24")), KubeReader::check)).isEmpty();
        assertThat(checks.reads()).isZero();
        // someone else's next version is checked
        assertThat(checks.read(pool("u1", "10", Arrays.asList("10.0.0.0/24", null)), KubeReader::check)).isPresent();
        assertThat(checks.reads()).isEqualTo(1);
    }
}
