package me.loutres.juneau.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClusterStateFilesTest {
    @TempDir
    Path dir;

    @Test
    void readsAKubectlListWithStatus() throws IOException {
        SnapshotClusterView view = ClusterStateFiles.load(Path.of("src/test/resources/cluster-state/kubectl-list.yaml"));

        assertThat(view.addressPool("pool-a")).get().extracting(p -> p.getStatus().getFree()).isEqualTo(252L);
        assertThat(view.externalNetwork("public")).get().extracting(n -> n.getSpec().getAddressPools()).asList().containsExactly("pool-a");
        assertThat(view.serviceLoadBalancer("default", "web")).get().extracting(s -> s.getStatus().getVip()).isEqualTo("192.0.2.1");
        assertThat(view.node("node-a")).get().extracting(n -> n.getStatus().getAddresses().get(0).getAddress()).isEqualTo("10.0.0.11");
        assertThat(view.find("", "Service", "default", "web")).get().isInstanceOf(Service.class);
        assertThat(view.objects()).hasSize(5);
        assertThat(view.arpAdvertisements()).isEmpty();
    }

    @Test
    void readsMultipleDocumentsAndTypedListsAndKeepsOtherKinds() throws IOException {
        Path file = write("state.yaml", """
                ---
                apiVersion: juneau.loutres.me/v1alpha1
                kind: AddressPoolList
                items:
                - apiVersion: juneau.loutres.me/v1alpha1
                  kind: AddressPool
                  metadata: {name: p1}
                  spec: {advertiseMode: arp, addresses: ["10.1.0.1-10.1.0.9"]}
                ---
                # just a comment
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: app, namespace: shop}
                spec: {replicas: 2}
                ---
                apiVersion: juneau.loutres.me/v1alpha1
                kind: ARPAdvertisement
                metadata: {name: slb-shop-web}
                spec: {externalNetwork: l2, address: 10.1.0.1, nodeName: n1}
                """);
        SnapshotClusterView view = ClusterStateFiles.load(file);

        assertThat(view.addressPools()).extracting(p -> p.getMetadata().getName()).containsExactly("p1");
        assertThat(view.arpAdvertisements()).hasSize(1);
        assertThat(view.find("apps", "Deployment", "shop", "app")).get().isInstanceOf(GenericKubernetesResource.class);
    }

    @Test
    void aDirectoryIsReadRecursively() throws IOException {
        Files.createDirectories(dir.resolve("a/b"));
        write("a/b/pool.yml", "apiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata: {name: deep}\nspec: {advertiseMode: bgp, addresses: [10.9.0.0/24]}\n");
        write("a/notes.txt", "not yaml: [");
        assertThat(ClusterStateFiles.load(dir).addressPool("deep")).isPresent();
    }

    static Stream<Arguments> badFiles() {
        return Stream.of(
                Arguments.of("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n- kind: Node\n  metadata: {name: b}\n",
                        ":7: object is missing apiVersion; every object needs apiVersion, kind and metadata.name"),
                Arguments.of("apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  name: b\n",
                        ":5: not valid YAML: Duplicate field 'name'"),
                Arguments.of("apiVersion: v1\nkind: Node\nmetadata: {name: a\n",
                        ":4: not valid YAML: while parsing a flow mapping: expected ',' or '}', but got <stream end>"),
                Arguments.of("- a\n- b\n", ":1: document 1 is a list, expected a Kubernetes object (a map with apiVersion, kind and metadata)"),
                Arguments.of("apiVersion: v1\nkind: Node\nmetadata: {name: ok}\n---\napiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata: {name: p}\nspec:\n  advertiseMode: bgp\n  addresses: 10.0.0.0/24\n",
                        ":5: AddressPool p: spec.addresses: \"10.0.0.0/24\" has the wrong type for AddressPool; expected a list"),
                Arguments.of("apiVersion: v1\nkind: List\nitems: 3\n", ":3: items of a List must be a list"),
                // found by the fuzzer: SnakeYAML's event class names reached the message
                Arguments.of(" {[}]\n", ":1: not valid YAML: Expected a field name (Scalar value in YAML), got this "
                        + "instead: the start of a list"));
    }

    @ParameterizedTest
    @MethodSource("badFiles")
    void badInputIsOneLineWithFileAndLine(String content, String expected) throws IOException {
        Path file = write("bad.yaml", content);
        assertThatThrownBy(() -> ClusterStateFiles.load(file))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith(file + expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aMissingFileSaysSo() {
        assertThatThrownBy(() -> ClusterStateFiles.load(dir.resolve("nope.yaml")))
                .hasMessage(dir.resolve("nope.yaml") + ": no such file or directory");
    }

    @Test
    void snapshotsAreImmutableAndLaterObjectsReplaceEarlierOnes() throws IOException {
        SnapshotClusterView view = ClusterStateFiles.load(write("p.yaml",
                "apiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata: {name: p}\nspec: {advertiseMode: bgp, addresses: [10.0.0.0/24]}\n"));
        AddressPool replacement = new AddressPool();
        replacement.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("p").build());
        replacement.setSpec(new me.loutres.juneau.api.v1alpha1.AddressPoolSpec("bgp", java.util.List.of("10.1.0.0/24")));

        SnapshotClusterView next = view.with(replacement);

        assertThat(view.addressPool("p").get().getSpec().getAddresses()).containsExactly("10.0.0.0/24");
        assertThat(next.addressPool("p").get().getSpec().getAddresses()).containsExactly("10.1.0.0/24");
        assertThat(next.addressPools()).hasSize(1);
        assertThat(next.without(replacement).addressPools()).isEmpty();
        assertThatThrownBy(() -> next.addressPools().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theClusterRangesOfAStateFileAreIndexedAndAnAddedObjectJoinsTheIndexes() throws IOException {
        SnapshotClusterView view = ClusterStateFiles.load(write("ranges.yaml", """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: networking.k8s.io/v1
                  kind: ServiceCIDR
                  metadata: {name: kubernetes}
                  spec: {cidrs: [10.96.0.0/12, "fd00:10:96::/108"]}
                - apiVersion: v1
                  kind: Node
                  metadata: {name: worker-1}
                  spec: {podCIDR: 10.244.1.0/24, podCIDRs: [10.244.1.0/24]}
                  status: {addresses: [{type: InternalIP, address: 192.0.2.21}]}
                """));
        me.loutres.juneau.ip.AddressRange wide = new me.loutres.juneau.ip.AddressRange(
                me.loutres.juneau.ip.Ipv4.parse("10.0.0.0"), me.loutres.juneau.ip.Ipv4.parse("10.255.255.255"));

        assertThat(view.learntRangesOverlapping(wide)).extracting(LearntRange::source)
                .containsExactly("ServiceCIDR kubernetes 10.96.0.0/12", "Node worker-1 podCIDR 10.244.1.0/24");
        assertThat(view.nodeInternalIpsIn(me.loutres.juneau.ip.AddressRange.single(
                me.loutres.juneau.ip.Ipv4.parse("192.0.2.21")))).extracting(RangeIndex.Hit::value).containsExactly("worker-1");

        AddressPool pool = new AddressPool();
        pool.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("p").build());
        pool.setSpec(new me.loutres.juneau.api.v1alpha1.AddressPoolSpec("bgp", java.util.List.of("10.50.0.0/24")));
        view.add(pool);
        assertThat(view.poolEntriesOverlapping(wide)).extracting(PoolEntryRef::poolName).containsExactly("p");
        pool.setSpec(new me.loutres.juneau.api.v1alpha1.AddressPoolSpec("bgp", java.util.List.of("172.16.0.0/24")));
        view.add(pool);
        assertThat(view.poolEntriesOverlapping(wide)).as("a new version replaces the old entries").isEmpty();
    }

    @Test
    void genericObjectsOfOurKindsBecomeTyped() {
        GenericKubernetesResource generic = new GenericKubernetesResource();
        generic.setApiVersion("juneau.loutres.me/v1alpha1");
        generic.setKind("AddressPool");
        generic.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("g").build());
        generic.setAdditionalProperty("spec", java.util.Map.of("advertiseMode", "bgp", "addresses", java.util.List.of("10.0.0.0/24")));
        HasMetadata typed = KubeObjects.typed(generic);
        assertThat(typed).isInstanceOf(AddressPool.class);
        assertThat(new SnapshotClusterView(java.util.List.of(generic)).addressPool("g")).isPresent();
    }

    private Path write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }
}
